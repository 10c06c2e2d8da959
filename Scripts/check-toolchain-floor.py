#!/usr/bin/env python3
"""Fails on Swift that the oldest toolchain the package claims cannot compile.

The floor is the `swift-tools-version` of Package.swift (6.0: Xcode 16.0). Every .swift file of
the repository (every target, the manifest, the examples; not .build*, not hidden folders, not
this script's fixtures) is read with its comments and string literals blanked out, and each use of
a language feature or Testing API newer than the floor is reported as `file:line: error: [rule]`
unless it stands in an `#if compiler(>=X)` branch with X at least the version that feature needs.
Two more kinds of rule hold whatever the compiler:

- `availability`: standard library APIs newer than the package's deployment targets (iOS 16,
  macOS 13, watchOS 9, tvOS 16), such as `Mutex`. A use inside `if #available` is marked on its
  line, or on the line above, with `// toolchain-floor: allow(availability): <why>`.
- `typed-throws-generic`: a typed-throws function type (`(...) throws(E) -> T`) in a generic
  position: an element of an array or dictionary (type or literal), a generic argument, an
  Optional, a stored property of a generic type, or a typealias of one used so. Apple's compilers
  reject these below macOS 15 / iOS 18 ("runtime support for typed throws function types").

Usage:
  Scripts/check-toolchain-floor.py [--root DIR] [PATH ...]   check (default: the whole package)
  Scripts/check-toolchain-floor.py --self-test               check the fixtures: each line marked
      `// expect: rule[, rule]` must be reported with exactly those rules, and no other line

Each rule's version is the release that introduced the feature: swift-testing's own
`@Available(Swift, introduced:)` for the Testing APIs (and its 6.1 macro, which stopped splitting
comparisons that hold a `try`), the Swift CHANGELOG and evolution proposals for the language.

Limits: it reads text, not types. It does not see a newer API reached through a name it does not
list (an extension, a typealias other than a typed-throws one), a typed-throws closure passed
where a generic parameter is inferred from it, or whether an `if #available` really encloses a
line marked as allowed. A build with Swift 6.0 (the Linux and macOS workflows) stays the proof.

Exit status: 0 clean, 1 findings (or self-test failure), 2 usage error.
"""

import os
import re
import sys
from dataclasses import dataclass

FIXTURES = os.path.join("Scripts", "toolchain-floor-fixtures")

# MARK: - Rules


@dataclass(frozen=True)
class Rule:
    """A pattern on code with comments and strings blanked, and the compiler that accepts it."""

    id: str
    needs: tuple  # the compiler version that accepts it, or None for a rule that always holds
    pattern: re.Pattern
    message: str
    accept: object = None  # a further test of a match: (code, match) -> Bool
    words: tuple = ()  # words one of which a match contains: a fast first test


def rule(rule_id, needs, pattern, message, accept=None):
    version = tuple(int(part) for part in needs.split(".")) if needs else None
    # The pattern's longest literal words: a file holding none of them cannot match.
    words = []
    for alternative in split_alternatives(pattern):
        # Escapes, classes, lookarounds, optional parts and groups of alternatives say nothing
        # certain about the text...
        plain = re.sub(r"\\.|\[[^\]]*\]|\(\?<?[!=][^)]*\)", " ", alternative)
        plain = re.sub(r"\([^()]*\)[?*]|\w[?*]|\{0,?\d*\}", " ", plain)
        plain = re.sub(r"\((?:\?:)?[^()]*\|[^()]*\)", " ", plain)
        literals = re.findall(r"[A-Za-z][A-Za-z0-9]{2,}|[@#,`:~]", plain)
        # ...but a group of plain words contains one of them.
        group = re.search(r"\((?:\?:)?((?:[A-Za-z][A-Za-z0-9]{2,}\|)+[A-Za-z][A-Za-z0-9]{2,})\)", alternative)
        if literals and (len(max(literals, key=len)) >= 4 or not group):
            words.append(max(literals, key=len))
        elif group:
            words += group.group(1).split("|")
        else:
            words = []
            break
    return Rule(rule_id, version, re.compile(pattern), message, accept, tuple(words))


def split_alternatives(pattern):
    """The top-level alternatives of a regular expression."""
    parts, depth, current, escaped = [], 0, "", False
    for c in pattern:
        if escaped:
            current, escaped = current + c, False
            continue
        if c == "\\":
            current, escaped = current + c, True
            continue
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "|" and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += c
    return parts + [current]


def balanced(code, open_paren):
    """The text inside the parentheses that open at `open_paren`."""
    depth = 0
    for i in range(open_paren, len(code)):
        if code[i] in "([{":
            depth += 1
        elif code[i] in ")]}":
            depth -= 1
            if depth == 0:
                return code[open_paren + 1:i]
    return code[open_paren + 1:]


def first_argument(code, open_paren):
    """The first argument of the call whose `(` is at `open_paren`, up to a top-level comma."""
    depth, i = 0, open_paren + 1
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif c == "," and depth == 0:
            break
        i += 1
    return code[open_paren + 1:i]


def operand_try(argument):
    """Whether a top-level comparison's right operand holds a `try` (not `try?`, not `try!`)."""
    depth = 0
    for i, c in enumerate(argument):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and re.match(r"\s(?:===|!==|==|!=|<=|>=|<|>)\s", argument[i - 1:i + 4]):
            rest = argument[i:]
            # A closure's body is its own context.
            rest = re.sub(r"\{[^{}]*\}", " ", rest)
            return re.search(r"\btry\b(?![?!])", rest) is not None
    return False


def result_used(code, position):
    """Whether the value of the expression starting at `position` is used, not discarded."""
    before = code[:position].rstrip()
    while True:
        word = re.search(r"\b(?:try|await)[?!]?$", before)
        if not word:
            break
        before = before[:word.start()].rstrip()
    if before.endswith("="):
        return not (before.endswith(("==", "!=", "<=", ">=")) or re.search(r"\b_\s*=$", before))
    return before.endswith(("(", "??", ",", "return")) and not before.endswith("#if(")


RULES = [
    # Swift Testing (the versions are swift-testing's own `@Available(Swift, introduced:)`).
    rule("exit-test", "6.2", r"#(?:expect|require)\s*\(\s*processExitsWith\b|\bExitTest\b|\bExitStatus\b",
         "exit tests (`#expect(processExitsWith:)`) need Swift 6.2; keep an older path, e.g. "
         "spawn a helper process or check the non-trapping rule directly"),
    rule("test-cancel", "6.3", r"\bTest(?:\s*\.\s*Case)?\s*\.\s*cancel\s*\(",
         "`Test.cancel` needs Swift 6.3; an older path returns early after recording why"),
    rule("expect-throws-result", "6.1", r"#(?:expect|require)\s*\(\s*throws\s*:",
         "the error returned by `#expect(throws:)`/`#require(throws:)` needs Swift 6.1; use "
         "`#expect { ... } throws: { error in ... }` or a do/catch that records an Issue",
         accept=lambda code, match: result_used(code, match.start())),
    rule("expect-operand-try", "6.1", r"#(?:expect|require)\s*\(",
         "`try` inside the right operand of a comparison in `#expect`/`#require` needs Swift 6.1 "
         "(6.0's macro evaluates that operand in a non-throwing autoclosure); write one `try` "
         "first: `#expect(try a == b())`",
         accept=lambda code, match: operand_try(first_argument(code, match.end() - 1))),
    rule("attribute-closure", "6.1", r"@(?:Test|Suite)\s*\(",
         "a closure in `@Test`/`@Suite` arguments crashes the Swift 6.0 compiler (emitting the "
         "module); name the values in a static property and pass that",
         accept=lambda code, match: "{" in balanced(code, match.end() - 1)),
    rule("issue-severity", "6.3", r"\bseverity\s*:\s*\.(?:warning|error)\b|\bIssue\s*\.\s*Severity\b",
         "issue severities (`Issue.record(severity:)`) need Swift 6.3"),
    rule("attachment", "6.2", r"\b(?:Attachment|Attachable|AttachableWrapper)\b",
         "attachments need Swift 6.2"),
    rule("image-attachment", "6.3", r"\b(?:AttachableAsImage|AttachableImageFormat)\b",
         "image attachments need Swift 6.3"),
    rule("confirmation-range", "6.1", r"\bexpectedCount\s*:\s*[^,\n]*(?:\.\.\.|\.\.<)",
         "`confirmation(expectedCount:)` with a range needs Swift 6.1"),
    rule("test-scoping", "6.1", r"\bTestScoping\b|\bprovideScope\s*\(|\bscopeProvider\s*\(",
         "test scoping traits need Swift 6.1"),
    rule("issue-handling-trait", "6.2",
         r"\bIssueHandlingTrait\b|\.\s*(?:compactMapIssues|filterIssues)\s*\(",
         "issue handling traits need Swift 6.2"),
    rule("test-reflectable", "6.4", r"\bCustomTestReflectable\b|\breflectingForTest\s*:",
         "`CustomTestReflectable` needs Swift 6.4"),
    # The language.
    rule("trailing-comma", "6.1", r",\s*\)|,\s*(?<!-)>",
         "a trailing comma outside an array or dictionary literal needs Swift 6.1 (SE-0439)"),
    rule("nonisolated-type", "6.1",
         r"\bnonisolated\s+(?:(?:public|package|internal|fileprivate|private|final)\s+)*"
         r"(?:struct|class|enum|actor|protocol|extension)\b",
         "`nonisolated` on a type or extension needs Swift 6.1 (SE-0449)"),
    rule("task-group-inference", "6.1",
         r"\bwith(?:Throwing)?TaskGroup\s*(?:\{|\(\s*\)|\((?![^()]*\bof\s*:)[^()]*\))",
         "a task group without `of:` needs Swift 6.1 (SE-0442)"),
    rule("raw-identifier", "6.2", r"`(?![A-Za-z_][A-Za-z0-9_]*`)[^`\n]+`",
         "raw identifiers (backquoted names that are not identifiers) need Swift 6.2 (SE-0451)"),
    rule("concurrent-attribute", "6.2", r"@concurrent\b", "`@concurrent` needs Swift 6.2 (SE-0461)"),
    rule("nonisolated-nonsending", "6.2", r"\bnonisolated\s*\(\s*nonsending\s*\)",
         "`nonisolated(nonsending)` needs Swift 6.2 (SE-0461)"),
    rule("isolated-deinit", "6.2", r"\bisolated\s+deinit\b", "`isolated deinit` needs Swift 6.2"),
    rule("isolated-conformance", "6.2",
         r"\b(?:struct|class|enum|actor|extension)\s+[\w.<>, ]+:[^{=]*@MainActor\s+[A-Z]",
         "isolated conformances (`: @MainActor P`) need Swift 6.2 (SE-0470)"),
    rule("value-generics", "6.2", r"<\s*let\s+\w+\s*:", "integer generic parameters need Swift 6.2"),
    rule("inline-array", "6.2", r"\bInlineArray\b|\[\s*\d+\s+of\b",
         "`InlineArray` and `[N of T]` need Swift 6.2"),
    rule("span", "6.2",
         r"\b(?:Span|RawSpan|MutableSpan|MutableRawSpan|OutputSpan|OutputRawSpan|UTF8Span)\b",
         "`Span` and its kin need Swift 6.2 (and new runtimes)"),
    rule("lifetimes", "6.2", r"~\s*Escapable\b|@_?lifetime\s*\(",
         "`~Escapable` and lifetime dependencies need Swift 6.2"),
    rule("memory-safety", "6.2", r"@(?:unsafe|safe)\b|(?<![\w(.@])unsafe\s+(?=[A-Za-z_(&\[])(?!let\b|var\b|in\b|as\b|is\b)",
         "strict memory safety annotations (`@unsafe`, `unsafe` expressions) need Swift 6.2"),
    rule("abi-attribute", "6.2", r"@abi\s*\(", "`@abi` needs Swift 6.2"),
    rule("task-naming", "6.2",
         r"\bTask\s*(?:<[^>]*>)?\s*\.\s*(?:immediate|startSynchronously)\b|\bTask\s*(?:<[^>]*>)?\s*\(\s*name\s*:"
         r"|\bwithTaskPriorityEscalationHandler\b|\bObservations\s*[({]",
         "`Task.immediate`, `Task(name:)`, priority escalation and `Observations` need Swift 6.2"),
    rule("module-selector", "6.3", r"\b[A-Za-z_]\w*\s*::\s*[A-Za-z_]",
         "module selectors (`Module::name`) need Swift 6.3"),
    rule("c-attribute", "6.3", r"@c\b(?!\w)|@export\s*\(|@inline\s*\(\s*always\s*\)|@section\s*\(|@used\b|@specialize\s*\(",
         "`@c`, `@export`, `@inline(always)`, `@section`, `@used` and `@specialize` need Swift 6.3"),
    # The deployment targets: iOS 16, macOS 13, watchOS 9, tvOS 16.
    rule("availability", None,
         r"\bimport\s+(?:Synchronization|Observation)\b|\bMutex\b|\bAtomic\s*<|\bU?Int128\b"
         r"|\bRangeSet\b|\.\s*(?:removeSubranges|moveSubranges)\s*\(|\.\s*indices\s*\(\s*where\s*:"
         r"|\bwith(?:Throwing)?DiscardingTaskGroup\b|\bDiscardingTaskGroup\b|\bTaskExecutor\b"
         r"|\bwithTaskExecutorPreference\b|\bexecutorPreference\s*:|@Observable\b"
         r"|\bwithObservationTracking\b|#Predicate\b|\bRecurrenceRule\b"
         r"|\bString\s*\(\s*validating\s*:|(?<!components)\.\s*attoseconds\b|\bDuration\s*\(\s*attoseconds\s*:",
         "this API needs a newer OS than the package's iOS 16 / macOS 13 / watchOS 9 / tvOS 16; "
         "use it under `if #available` and mark the line "
         "`// toolchain-floor: allow(availability): <why>`"),
]

TYPED_THROWS_MESSAGE = (
    "a typed-throws function type in a generic position ({}) needs the typed-throws runtime "
    "(macOS 15 / iOS 18); use an untyped `throws` closure, a struct with a method, or an enum")
TYPED_THROWS = "typed-throws-generic"
ALL_RULE_IDS = {r.id for r in RULES} | {TYPED_THROWS}

# MARK: - Reading Swift


def blank(text):
    """The text with comments and string literals' contents blanked (lines and columns kept).

    Returns the blanked code and, per line (1-based), the text of the comments on it.
    """
    out = list(text)
    comments = {}
    i, n, line = 0, len(text), 1

    def erase(start, end):
        for k in range(start, end):
            if out[k] != "\n":
                out[k] = " "

    def note(start, end):
        first = text.count("\n", 0, start) + 1
        for offset, part in enumerate(text[start:end].split("\n")):
            comments[first + offset] = comments.get(first + offset, "") + " " + part

    def skip_string(i):
        """From a string literal's first `#` or `"`, the index after it.

        Its text is erased; its interpolations' expressions are code, and stay.
        """
        hashes = 0
        while i < n and text[i] == "#":
            hashes += 1
            i += 1
        line_end = text.find("\n", i)
        if text.startswith('"""', i) and not text[i + 3:line_end if line_end >= 0 else n].strip():
            # A multi-line literal: its opening delimiter ends its line (`#""""#` does not).
            close = '"""' + "#" * hashes
            i += 3
        else:
            close = '"' + "#" * hashes
            i += 1
        escape = "\\" + "#" * hashes
        segment = i  # where the current run of literal text began
        while i < n:
            if text.startswith(escape, i):
                j = i + len(escape)
                if j < n and text[j] == "(":
                    # An interpolation: erase the text before it and its `\`, keep `(...)`.
                    erase(segment, j)
                    depth, i = 0, j
                    while i < n:
                        c = text[i]
                        if c == '"' or (c == "#" and re.match(r'#+"', text[i:i + 8])):
                            i = skip_string(i)
                            continue
                        if c == "(":
                            depth += 1
                        elif c == ")":
                            depth -= 1
                            if depth == 0:
                                i += 1
                                break
                        i += 1
                    segment = i
                    continue
                i = j + 1
                continue
            if text.startswith(close, i):
                erase(segment, i)
                return i + len(close)
            i += 1
        erase(segment, n)
        return n

    interesting = re.compile(r'//|/\*|#*"')
    while i < n:
        found = interesting.search(text, i)
        if not found:
            break
        i = found.start()
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            note(i, end)
            erase(i, end)
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            note(i, j)
            erase(i, j)
            i = j
        else:
            i = skip_string(i)
    return "".join(out), comments


def compiler_guard(condition):
    """The version an `#if`/`#elseif` condition guarantees the compiler is at least, or None."""
    if "||" in condition:
        return None
    best = None
    for match in re.finditer(r"(!?)\s*compiler\s*\(\s*>=\s*([\d.]+)\s*\)", condition):
        if match.group(1):
            continue
        version = tuple(int(part) for part in match.group(2).split("."))
        best = version if best is None or version > best else best
    return best


def line_guards(code):
    """For each line (1-based index), the compiler version its `#if` branches guarantee."""
    guards = [None]
    stack = []  # the guarantee of the open branch at each nesting level
    for raw in code.split("\n"):
        stripped = raw.strip()
        directive = re.match(r"#(if|elseif|else|endif)\b(.*)", stripped)
        if directive:
            kind, condition = directive.groups()
            if kind == "if":
                stack.append(compiler_guard(condition))
            elif kind == "elseif" and stack:
                stack[-1] = compiler_guard(condition)
            elif kind == "else" and stack:
                stack[-1] = None
            elif kind == "endif" and stack:
                stack.pop()
        known = [version for version in stack if version is not None]
        guards.append(max(known) if known else None)
    return guards


# MARK: - Typed throws in generic positions


class Brackets:
    """The bracket structure of blanked code: for each position, its innermost open bracket."""

    def __init__(self, code):
        self.code = code
        self.kind = []  # "(", "[", "{", "<"
        self.start = []
        self.end = []
        self.parent = []
        self.innermost = [-1] * (len(code) + 1)
        stack = []
        for i, c in enumerate(code):
            self.innermost[i] = stack[-1] if stack else -1
            if c == "{":
                while stack and self.kind[stack[-1]] == "<":
                    stack.pop()
            if c in "([{" or (c == "<" and i > 0 and (code[i - 1].isalnum() or code[i - 1] in "_>")):
                self.kind.append(c)
                self.start.append(i)
                self.end.append(None)
                self.parent.append(stack[-1] if stack else -1)
                stack.append(len(self.kind) - 1)
            elif c == ">" and code[i - 1:i] != "-" and stack and self.kind[stack[-1]] == "<":
                self.end[stack.pop()] = i
            elif c in ")]}":
                while stack and self.kind[stack[-1]] == "<":
                    stack.pop()
                if stack:
                    self.end[stack.pop()] = i
            elif c in ";=" and stack and self.kind[stack[-1]] == "<":
                stack.pop()  # a less-than operator, not a generic argument list

    def chain(self, position):
        """The open brackets around `position`, innermost first."""
        index = self.innermost[position]
        while index >= 0:
            yield index
            index = self.parent[index]

    def is_tuple(self, index):
        """A `(` that groups or makes a tuple, not a call's or a declaration's parameter list."""
        before = self.code[:self.start[index]].rstrip()
        return not before or not (before[-1].isalnum() or before[-1] in "_)]>?!")

    def after(self, index):
        """The first character after the bracket's close."""
        end = self.end[index]
        if end is None:
            return ""
        rest = self.code[end + 1:].lstrip(" \t")
        return rest[:1]

    def opener_text(self, index, length=200):
        """The code before an opening bracket, back to a statement boundary."""
        begin = max(0, self.start[index] - length)
        return self.code[begin:self.start[index]]


def generic_type_bodies(code, brackets):
    """The `{` brackets that are bodies of generic types, or of types nested in one."""
    generic = set()
    for index, kind in enumerate(brackets.kind):
        if kind != "{":
            continue
        head = re.split(r"[{};]", brackets.opener_text(index))[-1]
        declaration = re.search(r"\b(struct|class|enum|actor)\s+\w+\s*(<)?", head)
        if not declaration:
            continue
        outer = [i for i in brackets.chain(brackets.start[index]) if i in generic]
        if declaration.group(2) or outer:
            generic.add(index)
    return generic


STORED_PROPERTY = re.compile(
    r"(?:^|\n)[ \t]*(?:@\w+(?:\([^)\n]*\))?\s+)*"
    r"(?:(?:public|package|internal|fileprivate|private|static|final|nonisolated|lazy)"
    r"(?:\(\w+\))?\s+)*(?:let|var)\s+\w+\s*:[^\n]*$")


def typed_throws_findings(code):
    """(position, where) for each typed-throws function type in a generic position."""
    if "throws" not in code:
        return []
    brackets = Brackets(code)
    generic = generic_type_bodies(code, brackets)
    findings = []

    def generic_position(position, in_closure_signature):
        for index in brackets.chain(position):
            kind = brackets.kind[index]
            if kind == "[":
                return "an array or dictionary element"
            if kind == "<":
                return "a generic argument"
            if kind == "(":
                if brackets.is_tuple(index):
                    if brackets.after(index) in ("?", "!"):
                        return "an Optional"
                    continue
                return None
            if kind == "{":
                if in_closure_signature:
                    # A closure literal: generic when it is itself an element of a literal.
                    in_closure_signature = False
                    continue
                if index in generic:
                    line_start = code.rfind("\n", 0, position) + 1
                    if STORED_PROPERTY.search(code[line_start:position]):
                        return "a stored property of a generic type"
                return None
        return None

    # Typealiases of typed-throws function types, to follow where they are used.
    aliases = []
    for match in re.finditer(r"\btypealias\s+(\w+)\s*(?:<[^=]*>)?\s*=([^\n]*)", code):
        if re.search(r"\bthrows\s*\(", match.group(2)):
            aliases.append((match.group(1), match.end(1)))

    for match in re.finditer(r"\bthrows\s*\(", code):
        close = code.find(")", match.end())
        rest = code[close + 1:close + 400] if close >= 0 else ""
        signature = re.match(r"\s*(?:->\s*[^{}\n]*?)?\s*\bin\b", rest) is not None
        where = generic_position(match.start(), signature)
        if where:
            findings.append((match.start(), where))
    for name, declared_at in aliases:
        for use in re.finditer(r"\b%s\b" % re.escape(name), code):
            if use.end() == declared_at:
                continue
            where = generic_position(use.start(), False)
            if where is None and code[use.end():use.end() + 1] in ("?", "!"):
                where = "an Optional"
            if where:
                findings.append((use.start(), where + " (through typealias %s)" % name))
    return findings


# MARK: - Checking


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    rule: str
    message: str

    def __str__(self):
        return "%s:%d: error: [%s] %s" % (self.path, self.line, self.rule, self.message)


def version_text(version):
    return ".".join(str(part) for part in version)


def allowed(comments, line, rule_id):
    pattern = re.compile(r"toolchain-floor:\s*allow\(([^)]*)\)")
    for number in (line, line - 1):
        for match in pattern.finditer(comments.get(number, "")):
            if rule_id in [part.strip() for part in match.group(1).split(",")]:
                return True
    return False


def check_text(path, text, floor, prefilter=True):
    """The findings in one file's text, for a package whose oldest compiler is `floor`.

    `prefilter` skips a rule at once in a file holding none of its words; the self-test checks
    that this changes nothing.
    """
    code, comments = blank(text)
    guards = line_guards(code)
    # Directive lines themselves (`#if compiler(>=6.2)`) are not code.
    lines = code.split("\n")
    code = "\n".join(" " * len(l) if l.lstrip().startswith("#") and
                     re.match(r"\s*#(if|elseif|else|endif)\b", l) else l for l in lines)
    starts = [0]
    for l in code.split("\n"):
        starts.append(starts[-1] + len(l) + 1)

    def line_of(position):
        low, high = 0, len(starts) - 1
        while low < high:
            mid = (low + high + 1) // 2
            if starts[mid] <= position:
                low = mid
            else:
                high = mid - 1
        return low + 1

    findings = set()
    for r in RULES:
        if prefilter and r.words and not any(word in code for word in r.words):
            continue
        for match in r.pattern.finditer(code):
            if r.accept is not None and not r.accept(code, match):
                continue
            line = line_of(match.start())
            if r.needs is not None:
                if r.needs <= floor:
                    continue
                guard = guards[line] if line < len(guards) else None
                if guard is not None and guard >= r.needs:
                    continue
                message = "%s (floor %s: guard it with `#if compiler(>=%s)` and keep an older " \
                          "path)" % (r.message, version_text(floor), version_text(r.needs))
            else:
                message = r.message
            if allowed(comments, line, r.id):
                continue
            findings.add(Finding(path, line, r.id, message))
    for position, where in typed_throws_findings(code):
        line = line_of(position)
        if not allowed(comments, line, TYPED_THROWS):
            findings.add(Finding(path, line, TYPED_THROWS, TYPED_THROWS_MESSAGE.format(where)))
    return sorted(findings, key=lambda f: (f.path, f.line, f.rule)), comments


def package_floor(root):
    with open(os.path.join(root, "Package.swift"), encoding="utf-8") as manifest:
        first = manifest.readline()
    match = re.search(r"swift-tools-version\s*:\s*([\d.]+)", first)
    if not match:
        sys.exit("Package.swift: no swift-tools-version on its first line")
    return tuple(int(part) for part in match.group(1).split("."))


def swift_files(root, paths):
    skip_fixtures = os.path.normpath(os.path.join(root, FIXTURES))
    for start in paths:
        if os.path.isfile(start):
            yield start
            continue
        for folder, subfolders, files in os.walk(start):
            subfolders[:] = sorted(
                s for s in subfolders
                if not s.startswith(".") and os.path.normpath(os.path.join(folder, s)) != skip_fixtures)
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def file_floor(path, floor):
    """A `Package@swift-X.swift` manifest is read only by Swift X and later."""
    match = re.match(r"Package@swift-([\d.]+)\.swift$", os.path.basename(path))
    return tuple(int(part) for part in match.group(1).split(".")) if match else floor


def check(root, paths):
    floor = package_floor(root)
    findings = []
    count = 0
    for path in swift_files(root, paths):
        count += 1
        with open(path, encoding="utf-8") as source:
            text = source.read()
        shown = os.path.relpath(path, root)
        findings += check_text(shown, text, file_floor(path, floor))[0]
    for finding in findings:
        print(finding)
    print("toolchain floor %s: %d file(s) checked, %d finding(s)"
          % (version_text(floor), count, len(findings)))
    return 1 if findings else 0


def self_test(root):
    """Each fixture line marked `// expect: rules` is reported with exactly those rules."""
    folder = os.path.join(root, FIXTURES)
    floor = (6, 0)
    failures = []
    expected_total = 0
    seen_rules = set()
    for path in swift_files(root, [folder]):
        with open(path, encoding="utf-8") as source:
            text = source.read()
        shown = os.path.relpath(path, root)
        findings, comments = check_text(shown, text, floor)
        got = {}
        for finding in findings:
            got.setdefault(finding.line, set()).add(finding.rule)
        expected = {}
        for line, comment in comments.items():
            match = re.search(r"expect:\s*([\w, -]+)", comment)
            if match:
                expected[line] = {part.strip() for part in match.group(1).split(",") if part.strip()}
                unknown = expected[line] - ALL_RULE_IDS
                if unknown:
                    failures.append("%s:%d: unknown rule(s) %s" % (shown, line, sorted(unknown)))
        for line in sorted(set(got) | set(expected)):
            want, have = expected.get(line, set()), got.get(line, set())
            if want != have:
                failures.append("%s:%d: expected %s, reported %s"
                                % (shown, line, sorted(want) or "nothing", sorted(have) or "nothing"))
        expected_total += sum(len(rules) for rules in expected.values())
        seen_rules |= {r for rules in expected.values() for r in rules}
    untested = ALL_RULE_IDS - seen_rules
    if untested:
        failures.append("rules no fixture exercises: %s" % ", ".join(sorted(untested)))
    # The words that let a file skip a rule must never hide a finding, here or in the package.
    floor_of_package = package_floor(root)
    for path in swift_files(root, [root, folder]):
        with open(path, encoding="utf-8") as source:
            text = source.read()
        shown = os.path.relpath(path, root)
        floor = (6, 0) if shown.startswith(FIXTURES) else file_floor(path, floor_of_package)
        fast = check_text(shown, text, floor)[0]
        full = check_text(shown, text, floor, prefilter=False)[0]
        if fast != full:
            failures.append("%s: the rules' words hide %s"
                            % (shown, sorted(set(map(str, full)) - set(map(str, fast)))))
    for failure in failures:
        print("self-test: " + failure)
    if failures or expected_total == 0:
        print("self-test FAILED: %d problem(s)" % len(failures))
        return 1
    print("self-test passed: %d expected finding(s) reported, nothing else, every rule exercised"
          % expected_total)
    return 0


def main(arguments):
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    paths = []
    test = False
    iterator = iter(arguments)
    for argument in iterator:
        if argument == "--self-test":
            test = True
        elif argument == "--root":
            root = next(iterator, None) or sys.exit("--root needs a folder")
        elif argument in ("-h", "--help"):
            print(__doc__)
            return 0
        elif argument.startswith("-"):
            print("unknown option %s\n%s" % (argument, __doc__), file=sys.stderr)
            return 2
        else:
            paths.append(argument)
    if test:
        return self_test(root)
    return check(root, paths or [root])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
