#!/usr/bin/env python3
"""Checks the JSON Schemas of event format v1 against the examples and the Swift reader.

Usage: Tools/schema-check.py [--navlog PATH] [--generated-events N]
       Tools/schema-check.py --seal FILE...

Without --seal, from any directory:
  1. checks that Schemas/navigation-event.schema.json and Schemas/navigation-state.schema.json
     are valid JSON Schema 2020-12 documents and that every $ref resolves locally (the event
     schema's snapshot/restore `state` refers to the state schema by its $id, the state schema's
     routes refer back to the event schema's $defs/Route);
  2. validates every line of Schemas/examples/valid/*.jsonl (each line must be valid, seq gapless
     from 1, each crc correct) and Schemas/examples/invalid/*.jsonl (exactly one line must be
     invalid: one defect per file);
  3. runs `navlog verify --mode absolute` on every example and asserts that the Swift reader accepts
     exactly the valid files (with a warning for each unknown type and no other) and rejects exactly
     the invalid ones, at the line the schema rejects (and, in salvage mode, at that line only);
  4. generates a log file and a log directory of segments with `navlog generate` and validates every
     line of them.
It prints one line per check and ends with `N passed, M failed`; the exit status is 1 on failures.

A line is checked as the reader sees it before JSON Schema can: at most 64 KiB, strict UTF-8, one
RFC 8259 value (NaN and Infinity refused). The checks that span lines or need the line's bytes (seq
continuity, the crc value, crc last, duplicate members) are outside JSON Schema; the examples do not
exercise them and the Swift tests cover them.

--seal FILE... rewrites each line of the files that is a JSON object ending in `}` so that it ends
with a correct `,"crc":"xxxxxxxx"}` (replacing a crc already there): the crc is CRC-32C (Castagnoli)
of the line's bytes before `,"crc":`, as 8 lowercase hex digits.
"""

import argparse
from decimal import Decimal
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pydeps

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCHEMAS = os.path.join(REPO, "Schemas")
EVENT_SCHEMA = os.path.join(SCHEMAS, "navigation-event.schema.json")
STATE_SCHEMA = os.path.join(SCHEMAS, "navigation-state.schema.json")
EXAMPLES = os.path.join(SCHEMAS, "examples")
MAX_LINE = 65536


# --- CRC-32C ---------------------------------------------------------------------------------

def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli): reflected polynomial 0x82F63B78, init and xorout 0xFFFFFFFF."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


assert crc32c(b"123456789") == 0xE3069283  # the standard check value

CRC_TAIL = re.compile(rb',"crc":"[^"]*"}$')


def seal(line: bytes) -> bytes:
    """The line with a correct crc as its last member (lines that are not objects are kept)."""
    stripped = line.rstrip(b" \t")
    if not stripped.startswith(b"{") or not stripped.endswith(b"}"):
        return line
    match = CRC_TAIL.search(stripped)
    body = stripped[: match.start()] if match else stripped[:-1]
    return body + b',"crc":"%08x"}' % crc32c(body)


def crc_problem(line: bytes):
    """For a line ending in a crc member: None when it matches the line's bytes, else a message."""
    match = CRC_TAIL.search(line)
    if not match:
        return None
    stored = line[match.start() + 8: match.end() - 2].decode("ascii", "replace")
    actual = "%08x" % crc32c(line[: match.start()])
    return None if stored == actual else "crc %s does not match the line's bytes (%s)" % (stored, actual)


def seal_files(paths):
    for path in paths:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
        trailing = lines and lines[-1] == b""
        body = lines[:-1] if trailing else lines
        with open(path, "wb") as f:
            f.write(b"\n".join(seal(line) for line in body) + (b"\n" if trailing else b""))
        print("sealed %s (%d lines)" % (os.path.relpath(path), len(body)))


# --- Dependencies ----------------------------------------------------------------------------

def ensure_modules():
    """Imports jsonschema (>= 4.18, with `referencing`) and rfc3339-validator, installing if missing."""
    def usable():
        try:
            import jsonschema  # noqa: F401
            import referencing  # noqa: F401
            import rfc3339_validator  # noqa: F401
            from jsonschema import Draft202012Validator  # noqa: F401
            return True
        except ImportError:
            return False

    if not usable():
        pydeps.install("jsonschema>=4.18", "rfc3339-validator")
        for name in list(sys.modules):
            if name.split(".")[0] in ("jsonschema", "referencing", "rfc3339_validator"):
                del sys.modules[name]
        if not usable():
            sys.exit("schema-check: cannot import jsonschema >= 4.18 and rfc3339-validator after installing them")


# --- Checks ----------------------------------------------------------------------------------

class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def record(self, ok, name, detail=""):
        if ok:
            self.passed += 1
            print("ok    %s%s" % (name, ": " + detail if detail else ""))
        else:
            self.failed += 1
            print("FAIL  %s%s" % (name, ": " + detail if detail else ""))
        sys.stdout.flush()
        return ok


def _refuse_constant(name):
    raise ValueError("%s is not JSON (RFC 8259)" % name)


MAX_DEPTH = 257  # containers, the line's object included: the reader refuses nesting deeper than 256
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _structure_problem(value):
    """A lone surrogate (RFC 8259 strings are Unicode text; Python's json lets them through) or
    nesting deeper than the reader allows."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > MAX_DEPTH:
                return "nesting deeper than %d" % (MAX_DEPTH - 1)
            items = list(node.items()) if isinstance(node, dict) else [(None, v) for v in node]
            for key, item in items:
                if key is not None:
                    stack.append((key, depth))
                stack.append((item, depth + 1))
        elif isinstance(node, str) and any(0xD800 <= ord(c) <= 0xDFFF for c in node):
            return "lone surrogate in a string"
    return None


def parse_line(line: bytes):
    """Parses one line as the reader does before any schema check: (value, None) or (None, error).

    Numbers with a fraction or an exponent are read as exact decimals, so that 1.0 and 1e0 are
    integers and 3.0000000000000001 is not, as in JSON Schema (a float would round it to 3)."""
    if len(line) > MAX_LINE:
        return None, "line is %d bytes, longer than the 64 KiB limit" % len(line)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, "invalid UTF-8: %s" % error
    if text.strip(" \t\r\n") == "":
        return None, "blank line"
    try:
        value = json.loads(text, parse_float=Decimal, parse_constant=_refuse_constant)
    except ValueError as error:
        return None, "invalid JSON: %s" % error
    if SURROGATE_ESCAPE.search(text) or text.count("[") + text.count("{") > MAX_DEPTH:
        problem = _structure_problem(value)
        if problem:
            return None, "invalid JSON: %s" % problem
    return value, None


def read_lines(path):
    """A file's lines without their newlines; a missing final newline is reported as a torn line."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.endswith(b"\n"):
        return data.split(b"\n"), "no newline at end of file"
    return data[:-1].split(b"\n"), None


def first_error(validator, value):
    errors = sorted(validator.iter_errors(value), key=lambda e: (len(list(e.absolute_path)), e.message))
    if not errors:
        return None
    error = errors[0]
    where = "/".join(str(p) for p in error.absolute_path)
    return "%s%s" % ("at /%s: " % where if where else "", error.message)


def line_problem(validator, line: bytes):
    """None when the line is valid, else why not."""
    value, error = parse_line(line)
    if error:
        return error
    if validator.is_valid(value):
        return None
    return first_error(validator, value) or "invalid"


def exact_number_validator(base):
    """`base` with an `integer` type that also holds for decimals without a fractional part."""
    import jsonschema.validators

    def is_integer(checker, instance):
        if isinstance(instance, Decimal):
            return instance.is_finite() and instance == instance.to_integral_value()
        return base.TYPE_CHECKER.is_type(instance, "integer")

    return jsonschema.validators.extend(base, type_checker=base.TYPE_CHECKER.redefine("integer", is_integer))


def run_navlog(navlog, args):
    result = subprocess.run([navlog] + args, capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def verify(navlog, path, mode):
    code, out, err = run_navlog(navlog, ["verify", path, "--mode", mode, "--format", "json"])
    try:
        report = json.loads(out)
    except ValueError:
        report = None
    return code, report, err.strip()


def describe_defect(defect):
    return "line %s: %s: %s" % (defect.get("line"), defect.get("kind"), defect.get("detail"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--navlog", default=".build/debug/navlog",
                        help="the navlog binary (default .build/debug/navlog, relative to the repository root)")
    parser.add_argument("--generated-events", type=int, default=20000, metavar="N",
                        help="events in each generated log (default 20000)")
    parser.add_argument("--seal", nargs="+", metavar="FILE",
                        help="write a correct crc at the end of every object line of FILE, then exit")
    options = parser.parse_args()
    if options.seal:
        seal_files(options.seal)
        return 0

    ensure_modules()
    import jsonschema
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    navlog = options.navlog if os.path.isabs(options.navlog) else os.path.join(REPO, options.navlog)
    checks = Checks()

    # 1. The schemas themselves.
    schemas = {}
    for path in (EVENT_SCHEMA, STATE_SCHEMA):
        name = os.path.relpath(path, REPO)
        try:
            with open(path, "rb") as f:
                schema = json.loads(f.read().decode("utf-8"))
            Draft202012Validator.check_schema(schema)
            ok = schema.get("$schema") == "https://json-schema.org/draft/2020-12/schema" and "$id" in schema
            checks.record(ok, "%s is a valid JSON Schema 2020-12 with an $id" % name)
            schemas[path] = schema
        except (OSError, ValueError, jsonschema.SchemaError) as error:
            checks.record(False, "%s is a valid JSON Schema 2020-12" % name, str(error).split("\n")[0])
    if len(schemas) < 2:
        print("%d passed, %d failed" % (checks.passed, checks.failed))
        return 1
    event_schema, state_schema = schemas[EVENT_SCHEMA], schemas[STATE_SCHEMA]
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema, default_specification=DRAFT202012))
        for schema in (event_schema, state_schema))
    format_checker = Draft202012Validator.FORMAT_CHECKER
    Validator = exact_number_validator(Draft202012Validator)
    validator = Validator(event_schema, registry=registry, format_checker=format_checker)
    state_validator = Validator(state_schema, registry=registry, format_checker=format_checker)

    checks.record("date-time" in format_checker.checkers and
                  not format_checker.conforms("2026-02-30T00:00:00.000Z", "date-time"),
                  "format checker asserts date-time (rfc3339-validator): 2026-02-30 is refused")

    refs = []

    def collect_refs(node, base):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    refs.append((base, value))
                else:
                    collect_refs(value, base)
        elif isinstance(node, list):
            for value in node:
                collect_refs(value, base)

    for schema in (event_schema, state_schema):
        collect_refs(schema, schema["$id"])
    unresolved = []
    for base, ref in refs:
        try:
            registry.resolver(base_uri=base).lookup(ref)
        except Exception as error:  # referencing raises several kinds of Unresolvable
            unresolved.append("%s from %s (%s)" % (ref, base.rsplit("/", 1)[-1], type(error).__name__))
    checks.record(not unresolved, "all %d $refs of the two schemas resolve locally" % len(refs),
                  "; ".join(unresolved))

    sample_state = {"active": "main", "scenes": {"main": {
        "tab": "home", "stacks": {"home": [{"screen": "category", "id": "desserts"}], "search": []},
        "sheets": [{"id": "settingsSheet", "style": "sheet", "root": {"screen": "settings"}, "stack": []}],
        "split": {"sidebar": None, "content": None, "visibility": "automatic"}}}}
    bad_state = {"scenes": {"main": {"stacks": {"home": [{"id": "no-screen"}]}}}}
    checks.record(state_validator.is_valid(sample_state) and not state_validator.is_valid(bad_state),
                  "state schema accepts the State example of event-format.md and refuses a route without screen")

    known_types = []
    for branch in event_schema.get("allOf", []):
        const = branch.get("if", {}).get("properties", {}).get("type", {}).get("const")
        if const:
            known_types.append(const)

    # 2 and 3. The examples, against the schema and the reader.
    have_navlog = os.access(navlog, os.X_OK)
    checks.record(have_navlog, "navlog binary at %s" % options.navlog,
                  "" if have_navlog else "not found: run `swift build` first or pass --navlog")
    types_seen = set()
    for kind in ("valid", "invalid"):
        folder = os.path.join(EXAMPLES, kind)
        files = sorted(f for f in os.listdir(folder) if f.endswith(".jsonl")) if os.path.isdir(folder) else []
        checks.record(len(files) > 0, "%s examples exist" % kind, "%d files" % len(files))
        for name in files:
            path = os.path.join(folder, name)
            shown = "%s/%s" % (kind, name)
            lines, torn = read_lines(path)
            problems = []
            if torn:
                problems.append((len(lines), torn))
            values = []
            for number, line in enumerate(lines if not torn else lines[:-1], start=1):
                problem = line_problem(validator, line)
                if problem:
                    problems.append((number, problem))
                else:
                    values.append((number, line, parse_line(line)[0]))
            unknown_lines = sum(1 for _, _, value in values if value.get("type") not in known_types)
            if kind == "valid":
                checks.record(not problems, "schema accepts every line of %s" % shown,
                              "; ".join("line %d: %s" % p for p in problems) if problems
                              else "%d lines" % len(lines))
                seqs = [value.get("seq") for _, _, value in values]
                crc_errors = ["line %d: %s" % (n, crc_problem(line)) for n, line, _ in values if crc_problem(line)]
                seq_ok = seqs == list(range(1, len(lines) + 1))
                details = crc_errors + ([] if seq_ok else ["seq %s" % ",".join(str(seq) for seq in seqs)])
                checks.record(seq_ok and not crc_errors,
                              "%s has seq gapless from 1 and a correct CRC-32C on every line that carries one" % shown,
                              "; ".join(details))
                types_seen.update(value.get("type") for _, _, value in values)
            else:
                ok = len(problems) == 1
                checks.record(ok, "schema refuses exactly one line of %s" % shown,
                              "; ".join("line %d: %s" % p for p in problems) if problems else "every line validates")
            if not have_navlog:
                continue
            code, report, err = verify(navlog, path, "absolute")
            if report is None:
                checks.record(False, "navlog verify --mode absolute %s" % shown, "exit %d, %s" % (code, err))
                continue
            if kind == "valid":
                warnings = report.get("warnings", [])
                unexpected = [w for w in warnings if w.get("kind") != "unknownType"]
                ok = code == 0 and report.get("clean") and report.get("events") == len(lines) \
                    and len(warnings) == unknown_lines and not unexpected
                detail = "exit %d, %d events, %d warnings" % (code, report.get("events", -1), len(warnings))
                if report.get("defects"):
                    detail += "; " + "; ".join(describe_defect(d) for d in report["defects"])
                if unexpected or len(warnings) != unknown_lines:
                    detail += " (expected %d unknownType warnings)" % unknown_lines
                checks.record(ok, "reader accepts %s" % shown, detail)
            else:
                stop = report.get("stopped_at") or {}
                schema_line = problems[0][0] if len(problems) == 1 else None
                ok = code == 1 and stop.get("line") == schema_line
                checks.record(ok, "reader rejects %s at the line the schema refuses" % shown,
                              "exit %d, %s" % (code, describe_defect(stop) if stop else "no defect"))
                code, report, err = verify(navlog, path, "salvage")
                defects = (report or {}).get("defects", [])
                ok = len(defects) == 1 and defects[0].get("line") == schema_line
                checks.record(ok, "reader (salvage) finds exactly that one defect in %s" % shown,
                              "%d defect%s%s" % (len(defects), "" if len(defects) == 1 else "s",
                                                   ": " + "; ".join(describe_defect(d) for d in defects)
                                                   if len(defects) != 1 or not ok else ""))
    missing = [t for t in known_types if t not in types_seen]
    checks.record(not missing and len(known_types) == 19,
                  "the valid examples use all %d types the schema knows" % len(known_types),
                  "missing: " + ", ".join(missing) if missing else "")

    # 4. Generated logs.
    if have_navlog:
        work = tempfile.mkdtemp(prefix="schema-check-")
        try:
            n = options.generated_events
            targets = [(os.path.join(work, "generated.jsonl"), []),
                       (os.path.join(work, "generated-log"), ["--segment-size", "200000"])]
            for target, extra in targets:
                code, out, err = run_navlog(navlog, ["generate", "--events", str(n), "--seed", "7", "-o", target] + extra)
                command = ("navlog generate --events %d --seed 7 -o %s %s" % (n, os.path.basename(target), " ".join(extra))).rstrip()
                if not checks.record(code == 0, command,
                                     "" if code == 0 else "exit %d: %s" % (code, err.strip())):
                    continue
                if os.path.isdir(target):
                    files = sorted(os.path.join(target, f) for f in os.listdir(target) if re.fullmatch(r"[0-9]{8}\.jsonl", f))
                else:
                    files = [target]
                count, problems, segments_without_snapshot = 0, [], []
                for path in files:
                    lines, torn = read_lines(path)
                    if torn:
                        problems.append("%s: %s" % (os.path.basename(path), torn))
                        lines = lines[:-1]
                    for number, line in enumerate(lines, start=1):
                        count += 1
                        problem = line_problem(validator, line)
                        if problem and len(problems) < 5:
                            problems.append("%s:%d: %s" % (os.path.basename(path), number, problem))
                    if os.path.isdir(target):
                        first, _ = parse_line(lines[0]) if lines else (None, None)
                        if not isinstance(first, dict) or first.get("type") != "snapshot":
                            segments_without_snapshot.append(os.path.basename(path))
                detail = "%d lines in %d file%s" % (count, len(files), "" if len(files) == 1 else "s")
                checks.record(not problems and count == n,
                              "schema accepts every line of %s" % os.path.basename(target),
                              detail + ("; " + "; ".join(problems) if problems else ""))
                if os.path.isdir(target):
                    checks.record(files and not segments_without_snapshot,
                                  "every segment of %s starts with a snapshot" % os.path.basename(target),
                                  "not " + ", ".join(segments_without_snapshot) if segments_without_snapshot
                                  else "%d segments" % len(files))
                code, report, err = verify(navlog, target, "absolute")
                checks.record(code == 0 and report and report.get("events") == n and not report.get("warnings"),
                              "reader accepts %s" % os.path.basename(target),
                              "exit %d, %s events" % (code, (report or {}).get("events")))
        finally:
            shutil.rmtree(work, ignore_errors=True)

    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 0 if checks.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
