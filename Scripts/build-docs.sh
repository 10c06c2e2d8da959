#!/usr/bin/env bash
# Builds ONE linked documentation site for every module, with warnings as errors, without the DocC
# plugin (which would be a package dependency), on a fresh clone:
#
#   1. builds the library modules (not the tests) and extracts their public symbol graphs;
#   2. converts each catalog twice: a first pass that only writes each archive's linkable
#      entities, then a second pass, with warnings as errors, in which every catalog resolves
# links into every other one (``/AppPipeline/UsagePipeline``, <doc:/ScreenTimeKit/Performance>);
#   3. merges the archives into one site whose landing page lists the modules;
#   4. checks the site's links (Scripts/check-doc-links.swift): no unresolved reference, no link
#      to a page the site does not have, no citation of a repository file as plain text.
#
# The modules are the folders Sources/<Module>/<Module>.docc: a new module's catalog is found.
#
# Linking across modules: write ``/Module/Symbol`` for another module's symbol and
# <doc:/Module/Article> for its article. The leading slash matters: without it docc looks for
# the name inside the current module first and reports it missing.
#
#   Scripts/build-docs.sh [OUTPUT_DIR]     (default: .build/docs)
#
# The site is OUTPUT_DIR/ScreenTimeKit.doccarchive; each module's own archive is in
# OUTPUT_DIR/modules.
#
# Serve the site with `python3 -m http.server -d OUTPUT_DIR/ScreenTimeKit.doccarchive` and open
# http://localhost:8000/documentation/.
set -euo pipefail
cd "$(dirname "$0")/.."

output=${1:-.build/docs}
site="$output/ScreenTimeKit.doccarchive"

modules=()
for catalog in Sources/*/*.docc; do
  module=$(basename "$catalog" .docc)
  [ "$(basename "$(dirname "$catalog")")" = "$module" ] || {
    echo "build-docs: $catalog is not named after its module folder" >&2
    exit 1
  }
  modules+=("$module")
done
[ ${#modules[@]} -gt 0 ] || { echo "build-docs: no catalog in Sources/*/*.docc" >&2; exit 1; }

# 1. The library modules only: a fresh clone has no test module to load, and needs none.
for module in "${modules[@]}"; do
  swift build --target "$module" >/dev/null
done
bin=$(swift build --show-bin-path)
modules_dir="$bin/Modules"
[ -d "$modules_dir" ] || modules_dir="$bin"  # toolchains before 6.0 keep modules in the bin folder
triple=$(swiftc -print-target-info | sed -n 's/.*"triple": *"\([^"]*\)".*/\1/p' | head -n 1)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for module in "${modules[@]}"; do
  mkdir -p "$work/graphs/$module"
  swift-symbolgraph-extract -module-name "$module" -I "$modules_dir" -target "$triple" \
    -minimum-access-level public -skip-inherited-docs -output-dir "$work/graphs/$module"
done

convert() {  # convert MODULE OUT [docc options...]
  local module=$1 out=$2
  shift 2
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$work/graphs/$module" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.screentimekit.$module" \
    --enable-experimental-external-link-support \
    --output-path "$out" "$@"
}

# 2a. Each archive's linkable entities, links to the others left unresolved (and unreported).
mkdir -p "$work/first"
for module in "${modules[@]}"; do
  convert "$module" "$work/first/$module.doccarchive" >/dev/null 2>&1 || {
    echo "build-docs: $module does not convert even before its links are resolved:" >&2
    convert "$module" "$work/first/$module.doccarchive" >/dev/null
  }
done

# 2b. Every catalog against every other archive, warnings as errors.
rm -rf "$output"
mkdir -p "$output/modules"
archives=()
for module in "${modules[@]}"; do
  dependencies=()
  for other in "${modules[@]}"; do
    [ "$other" = "$module" ] || dependencies+=(--dependency "$work/first/$other.doccarchive")
  done
  # docc prints its diagnostics with its progress: keep them for a failure only.
  convert "$module" "$output/modules/$module.doccarchive" --warnings-as-errors \
    "${dependencies[@]}" >"$work/$module.log" 2>&1 || {
    cat "$work/$module.log" >&2
    echo "build-docs: $module's documentation has the problems above" >&2
    exit 1
  }
  archives+=("$output/modules/$module.doccarchive")
  echo "docs: $module"
done

# 3. One site.
docc merge "${archives[@]}" --output-path "$site" \
  --synthesized-landing-page-name ScreenTimeKit \
  --synthesized-landing-page-kind Package >/dev/null
echo "docs: merged into $site"

# 4. Its links. First a control: a site whose one page has a reference to a page it lacks, a
# link to a repository file, a cited Documentation/*.md and an unlinked type name must fail with
# exactly those four problems.
control="$work/control.doccarchive"
mkdir -p "$control/data/documentation/control"
cat >"$control/data/documentation/control/thing.json" <<'JSON'
{"metadata": {"symbolKind": "struct", "title": "Thing"}, "references": {}}
JSON
cat >"$control/data/documentation/control.json" <<'JSON'
{"metadata": {"symbolKind": "module", "title": "Control"},
 "abstract": [{"type": "text", "text": "See Documentation/Guide.md."}],
 "primaryContentSections": [{"kind": "content", "content": [{"type": "paragraph", "inlineContent": [
   {"type": "codeVoice", "code": "Thing"},
   {"type": "reference", "identifier": "doc://control/documentation/Control/Gone"},
   {"type": "reference", "identifier": "doc://control/file"}]}]}],
 "references": {
   "doc://control/documentation/Control/Gone": {"type": "topic", "title": "Gone", "url": "/documentation/control/gone"},
   "doc://control/file": {"type": "link", "title": "a file", "url": "../Sources/Control/Guide.md"}}}
JSON
if swift Scripts/check-doc-links.swift "$control" >"$work/control.txt" 2>&1 \
  || ! grep -q '^links: 4 problems' "$work/control.txt"; then
  cat "$work/control.txt"
  echo "build-docs: the link check's control did not fail with its four problems" >&2
  exit 1
fi
swift Scripts/check-doc-links.swift "$site"
