#!/usr/bin/env python3
"""Writes the ActivityWatch comparison fixtures of GapDetectionTests.

For each case it writes the input heartbeats (`<case>.input.jsonl`, one ActivityWatch event per
line, in deliberately varied but valid textual forms) and, for each pulse time, the events that
ActivityWatch's own `aw_transform.heartbeat_reduce` makes of them
(`<case>.pulse-<seconds>.expected.jsonl`, one `Event.to_json_str()` per line).

Run from this directory with aw-core installed (see README.md):

    python3 generate.py
"""
import json
import random
from datetime import datetime, timedelta, timezone

from importlib.metadata import version

from aw_core.models import Event
from aw_transform import heartbeat_reduce

EPOCH = datetime(2026, 3, 8, 6, 0, 0, tzinfo=timezone.utc)


def stamp(ms, offset_minutes=0, fraction_digits=None, micros=0):
    """An ISO 8601 timestamp of EPOCH + ms, written in the given UTC offset; `micros` are extra
    digits after the millisecond, which ActivityWatch truncates."""
    tz = timezone(timedelta(minutes=offset_minutes))
    moment = (EPOCH + timedelta(milliseconds=ms)).astimezone(tz)
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    millis = ms % 1000
    if fraction_digits is None:
        fraction_digits = 3 if millis else 0
    if fraction_digits:
        digits = f"{millis:03d}{micros:03d}" + "0" * 3
        text += "." + digits[:fraction_digits]
    if offset_minutes == 0 and fraction_digits % 2 == 1:
        return text + "Z"
    sign = "+" if offset_minutes >= 0 else "-"
    hours, minutes = divmod(abs(offset_minutes), 60)
    return f"{text}{sign}{hours:02d}:{minutes:02d}"


def seconds(ms):
    """A duration in seconds as JSON text, exact to the millisecond."""
    whole, millis = divmod(ms, 1000)
    return f"{whole}.{millis:03d}".rstrip("0").rstrip(".") if millis else str(whole)


def line(ts_ms, duration_ms, data_text, offset_minutes=0, fraction_digits=None, with_id=None,
         duration_text=None, micros=0):
    parts = []
    if with_id is not None:
        parts.append(f'"id": {json.dumps(with_id)}')
    parts.append(f'"timestamp": "{stamp(ts_ms, offset_minutes, fraction_digits, micros)}"')
    parts.append(f'"duration": {duration_text or seconds(duration_ms)}')
    parts.append(f'"data": {data_text}')
    return "{" + ", ".join(parts) + "}"


def boundaries():
    """Hand-made heartbeats at each boundary of the merge rule, pulse time 30 s."""
    a = '{"app": "Safari", "title": "Docs"}'
    a_reordered = '{"title":"Docs","app":"Safari"}'
    a_escaped = '{"app": "Saf\\u0061ri", "title": "Docs"}'
    b = '{"app": "Mail", "title": "Inbox"}'
    lines = [
        line(0, 0, a),                      # starts event 1
        line(10_000, 0, a),                 # inside the pulse window
        line(40_000, 0, a_reordered),       # exactly at last.end + 30 s: merges (inclusive)
        line(70_001, 0, a),                 # 1 ms past last.end + 30 s: new event
        line(70_001, 0, a),                 # equal start, equal data: merges, adds nothing
        line(70_001, 5_000, a_escaped),     # equal start, longer: extends to 75.001 s
        line(72_000, 1_000, a),             # ends before the event's end: never shortens it
        line(80_000, 0, b),                 # data differs: new event
        line(80_000, 0, b, offset_minutes=120),   # same instant written with +02:00
        line(79_999, 0, b),                 # before the last event's start: new event
        line(90_000, 2_500, '{"n": 1}'),
        line(95_000, 0, '{"n": 1.0}'),      # 1 == 1.0 in Python: merges
        line(96_000, 0, '{"n": true}'),     # True == 1 in Python: merges
        line(97_000, 0, '{"n": 2}'),        # differs: new event
        '{"timestamp": "2026-03-08T06:01:37.500Z", "duration": 25e-1, "data": {"n": 2}}',
        line(98_000, 0, '{"nested": {"b": [1, 2, {"c": null}], "a": "x"}}'),
        line(99_000, 0, '{"nested": {"a": "x", "b": [1, 2, {"c": null}]}}'),  # key order: merges
        line(100_000, 0, '{"nested": {"a": "x", "b": [2, 1, {"c": null}]}}'),  # array order: new
        line(130_000, 0, '{"nested": {"a": "x", "b": [2, 1, {"c": null}]}}', fraction_digits=6),
        line(160_001, 0, '{"nested": {"a": "x", "b": [2, 1, {"c": null}]}}', fraction_digits=9),
        line(170_000, 250, '{}', with_id=17),
        line(170_100, 100, '{}', offset_minutes=-330, with_id="x"),
        line(200_250, 0, '{}'),             # exactly at end (170.25 s) + 30 s: merges
        line(230_251, 0, '{}'),             # 1 ms past end (200.25 s) + 30 s: new event
    ]
    return lines, [30]


def jitter(seed=5):
    """One app, heartbeats every 30 s ± 20 % (uniform), for two hours."""
    rng = random.Random(seed)
    data = '{"app": "Duolingo", "title": "Lesson"}'
    lines, t = [], 0
    while t < 2 * 3600 * 1000:
        lines.append(line(t, 0, data))
        t += rng.randint(24_000, 36_000)
    return lines, [31, 36, 45]


def mixed(seed=11, count=3000):
    """A random stream: four data values in varied spellings, random steps and durations."""
    rng = random.Random(seed)
    spellings = [
        ['{"app": "Safari", "title": "Docs"}', '{"title": "Docs", "app": "Safari"}'],
        ['{"app": "Mail", "title": "Inbox"}', '{"app":"Mail","title":"Inbox"}'],
        ['{"app": "Duolingo", "title": "Lesson \\u00e9"}', '{"app": "Duolingo", "title": "Lesson \u00e9"}'],
        ['{"afk": false}', '{ "afk" : false }'],
    ]
    lines, t, current = [], 0, 0
    for _ in range(count):
        if rng.random() < 0.15:
            current = rng.randrange(len(spellings))
        step = rng.choice([0, 1, 500, 5_000, 29_999, 30_000, 30_001, 45_000, 60_000, 300_000])
        step += rng.randint(0, 999) if rng.random() < 0.3 else 0
        if rng.random() < 0.03:
            step = -rng.randint(1, 40_000)   # a late heartbeat, out of order
        t = max(0, t + step)
        duration = rng.choice([0, 0, 0, 1, 999, 1_000, 15_000, 30_000])
        offset = rng.choice([0, 0, 60, -300, 330])
        data = rng.choice(spellings[current])
        lines.append(line(t, duration, data, offset_minutes=offset))
    return lines, [0, 1, 30, 60]


def submillisecond(seed=23, count=2000):
    """Durations with digits below the millisecond, in the forms aw-core meets (Python's own
    float text, 7 and 9 decimals, exponents, half microseconds that Python rounds to even), and
    heartbeats 0 to 2 ms apart, so that merges hinge on the microseconds. Timestamps sometimes
    carry microseconds, which ActivityWatch truncates."""
    rng = random.Random(seed)
    data = ['{"app": "A"}', '{"app": "B"}']
    # The case that found the difference: 06:00:00 + 0.0006 s + 1 s < 06:00:01.001.
    lines = [line(0, 0, data[0], duration_text="0.0006"), line(1_001, 0, data[0])]
    t, current = 1_001, 0
    for _ in range(count):
        if rng.random() < 0.1:
            current = 1 - current
        t += rng.choice([0, 1, 2, 999, 1000, 1001, 1002, 2000])
        us = rng.choice([0, 1, 2, 499, 500, 501, 600, 999, 1000, 1001, 1499, 1500, 2500])
        if rng.random() < 0.3:
            us = rng.randint(0, 3000)
        form = rng.randrange(4)
        if form == 0:
            text = repr(us / 1e6)
        elif form == 1:
            text = f"{us / 1e6:.7f}"
        elif form == 2:
            text = f"{us + rng.choice([-0.5, 0.5, 0.4, -0.4, 0.25])}e-6"
        else:
            text = f"{us / 1e6:.9f}"
        micros = rng.randint(0, 999) if rng.random() < 0.3 else 0
        lines.append(line(t, 0, data[current], duration_text=text,
                          fraction_digits=6 if micros else None, micros=micros))
    return lines, [0, 1]


def durations(seed=29, count=3000):
    """Duration literals and the microseconds aw-core's `Event` holds for each, tab-separated."""
    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        whole = rng.choice([0, 0, 1, 59, 86_399, rng.randint(0, 10**9), rng.randint(0, 3 * 10**9)])
        digits = rng.randint(1, 12)
        fraction = "".join(rng.choice("0123456789") for _ in range(digits))
        form = rng.randrange(5)
        if form == 0:
            text = f"{whole}.{fraction}"
        elif form == 1:
            text = f"{whole}.{fraction[:6]}5"            # a half microsecond, or nearly
        elif form == 2:
            text = f"{rng.randint(0, 10**7)}e-{rng.randint(1, 9)}"
        elif form == 3:
            text = f"{rng.randint(0, 999)}.{fraction}E{rng.choice(['', '+', '-'])}{rng.randint(0, 3)}"
        else:
            text = repr(rng.randint(0, 10**12) / 10 ** rng.randint(0, 9))
        texts.append(text)
    rows = []
    for text in texts:
        duration = Event(timestamp=EPOCH, duration=json.loads(text), data={}).duration
        micros = (duration.days * 86_400 + duration.seconds) * 1_000_000 + duration.microseconds
        rows.append(f"{text}\t{micros}")
    return rows


def reduce_with_activitywatch(lines, pulse):
    events = [Event(**json.loads(text)) for text in lines]
    return [event.to_json_str() for event in heartbeat_reduce(events, pulsetime=pulse)]


def main():
    for name, (lines, pulses) in {
        "boundaries": boundaries(), "jitter": jitter(), "mixed": mixed(),
        "submillisecond": submillisecond(),
    }.items():
        with open(f"{name}.input.jsonl", "w", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")
        for pulse in pulses:
            with open(f"{name}.pulse-{pulse}.expected.jsonl", "w", encoding="utf-8") as out:
                out.write("\n".join(reduce_with_activitywatch(lines, pulse)) + "\n")
    with open("durations.expected.tsv", "w", encoding="utf-8") as out:
        out.write("\n".join(durations()) + "\n")
    print(f"fixtures written with aw-core {version('aw-core')}")


if __name__ == "__main__":
    main()
