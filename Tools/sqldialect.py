#!/usr/bin/env python3
"""The SQL of Tools/sql in DuckDB, Spark SQL and ClickHouse: one source per query, the other
dialects made from it by the rewrite rules below, and the typed tables each engine loads a
directory of many devices' `navlog export` NDJSON files into.

    python3 Tools/sqldialect.py spark|clickhouse|duckdb Tools/sql/paths.sql   the query in that dialect
    python3 Tools/sqldialect.py spark|clickhouse|duckdb --tables DIR          its table definitions,
        each table read from DIR/<table>/*.ndjson (the layout of the README's export loop)
    python3 Tools/sqldialect.py spark|clickhouse|duckdb --tables DIR --parquet  the same from the
        Parquet tables of Tools/fleet/pipeline.py, DIR/<table>/day=YYYY-MM-DD/*.parquet, with
        their device and day columns
    python3 Tools/sqldialect.py --rules                                       the rewrite rules

The source files are DuckDB SQL written in the subset all three engines share (`sum(CASE ...)`
rather than `FILTER`, `concat` rather than `||`, no correlated subqueries, no alias named like a
column it is computed from; comments only in the header; no `//`, `"` or `[` inside a string
literal, as the rules read them as code), so a DuckDB user runs them as they are. What has no common spelling
is written one way in the source and rewritten here, each rule with the reason it exists (RULES).
Tools/sql-check.py runs every query in every dialect and compares it with navlog's JSON, so a rule
that is wrong fails a check instead of a reader.
"""
import fractions
import re
import sys

# Every column of every exported table, with one type each engine maps to its own: a file where a
# column is all null (or missing) loads with the same types as any other.
TABLES = {
    "screen_views": [("session", "text"), ("scene", "text"), ("tab", "text"), ("stack", "text"), ("screen", "text"),
                     ("id", "text"), ("depth", "int"), ("entered_by", "text"), ("start_seq", "int"), ("start_ts", "text"),
                     ("end_ts", "text"), ("dwell_ms", "int"), ("background_ms", "int"), ("crashed", "bool"),
                     ("in_sheet", "bool")],
    "transitions": [("session", "text"), ("scene", "text"), ("step", "int"), ("from_screen", "text"), ("to_screen", "text"),
                    ("from_seq", "int"), ("to_seq", "int")],
    "deeplinks": [("session", "text"), ("scene", "text"), ("seq", "int"), ("ts", "text"), ("url", "text"), ("pattern", "text"),
                  ("outcome", "text"), ("depth", "int"), ("backed_out", "bool")],
    "sessions": [("session", "text"), ("app", "text"), ("launch", "text"), ("start_seq", "int"), ("start_ts", "text"),
                 ("end_ts", "text"), ("ended", "text"), ("events", "int"), ("scenes", "int"), ("foreground_ms", "int")],
}
TYPES = {
    "duckdb": {"text": "VARCHAR", "int": "BIGINT", "bool": "BOOLEAN"},
    "spark": {"text": "STRING", "int": "BIGINT", "bool": "BOOLEAN"},
    # Nullable: a missing value is NULL, as in the other engines, not '' or 0.
    "clickhouse": {"text": "Nullable(String)", "int": "Nullable(Int64)", "bool": "Nullable(Bool)"},
}
DIALECTS = tuple(TYPES)


def columns(table, dialect):
    """The table's columns as the dialect declares them: DuckDB's read_json `columns` struct,
    Spark's DDL schema string, ClickHouse's structure string."""
    types = TYPES[dialect]
    if dialect == "duckdb":
        return "{" + ", ".join(f"{name}: '{types[kind]}'" for name, kind in TABLES[table]) + "}"
    return ", ".join(f"{name} {types[kind]}" for name, kind in TABLES[table])


def table_statements(dialect, directory, parquet=False):
    """The SQL statements that load every table from DIRECTORY/<table>/*.ndjson (or with `parquet`,
    from the pipeline's DIRECTORY/<table>/day=YYYY-MM-DD/*.parquet), one a line: a table in DuckDB
    and ClickHouse, a cached temporary view in Spark. Each query refers to its tables several
    times, and the files are read once rather than at each."""
    if parquet:
        return parquet_statements(dialect, directory)
    lines = []
    for table in TABLES:
        files = f"{directory}/{table}/*.ndjson"
        if dialect == "duckdb":
            lines.append(f"CREATE TABLE {table} AS SELECT * FROM read_json('{files}', format = 'newline_delimited', "
                         f"columns = {columns(table, dialect)});")
        elif dialect == "clickhouse":
            lines.append(f"CREATE TABLE {table} ENGINE = MergeTree ORDER BY tuple() AS SELECT * FROM file('{files}', "
                         f"JSONEachRow, '{columns(table, dialect)}');")
        else:
            lines.append(f"CREATE OR REPLACE TEMPORARY VIEW {table} ({columns(table, dialect)}) USING json OPTIONS (path '{files}');")
            lines.append(f"CACHE TABLE {table};")
    return "\n".join(lines)


# The columns the pipeline adds to each table: the device's id, and the UTC day the table is
# partitioned by (a directory name, day=YYYY-MM-DD, not a column of the files).
PARQUET_EXTRA = {"duckdb": "device VARCHAR, day DATE", "spark": "device STRING, day DATE",
                 "clickhouse": "device Nullable(String)"}


def parquet_statements(dialect, directory):
    """The statements of table_statements for the pipeline's Parquet tables. Their files hold the
    declared types (Spark wrote them so); Spark and ClickHouse are given them too, as a check."""
    lines = []
    for table in TABLES:
        root = f"{directory}/{table}"
        if dialect == "duckdb":
            lines.append(f"CREATE TABLE {table} AS SELECT * FROM read_parquet('{root}/*/*.parquet', hive_partitioning = true, "
                         f"hive_types = {{'day': DATE}});")
        elif dialect == "clickhouse":
            # ClickHouse's file() reads the day from the path (_path) rather than guess a type for it.
            lines.append(f"CREATE TABLE {table} ENGINE = MergeTree ORDER BY tuple() AS SELECT *, "
                         f"CAST(extract(_path, 'day=([0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}})') AS Date) AS day FROM file('{root}/*/*.parquet', "
                         f"Parquet, '{columns(table, dialect)}, {PARQUET_EXTRA[dialect]}') SETTINGS use_hive_partitioning = 0;")
        else:
            lines.append(f"CREATE OR REPLACE TEMPORARY VIEW {table} ({columns(table, dialect)}, {PARQUET_EXTRA[dialect]}) "
                         f"USING parquet OPTIONS (path '{root}');")
            lines.append(f"CACHE TABLE {table};")
    return "\n".join(lines)


def _group_end(sql, start):
    """The index after the parenthesis that closes the one at `start`."""
    depth = 0
    for i in range(start, len(sql)):
        depth += {"(": 1, ")": -1}.get(sql[i], 0)
        if depth == 0:
            return i + 1
    raise ValueError("unbalanced parentheses at %d" % start)


def _group_start(sql, end):
    """The index of the parenthesis that opens the one just before `end`."""
    depth = 0
    for i in range(end - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(sql[i], 0)
        if depth == 0:
            return i
    raise ValueError("unbalanced parentheses before %d" % end)


NAME = re.compile(r"[A-Za-z0-9_.]+")


def _left_operand(sql, end):
    """Where the operand that ends at `end` begins: a parenthesized group (with the name of the
    function it calls), or a name or number."""
    i = end
    if sql[i - 1] == ")":
        i = _group_start(sql, i)
    while i > 0 and NAME.fullmatch(sql[i - 1]):
        i -= 1
    return i


def _right_operand(sql, start):
    """Where the operand that begins at `start` ends (the same operands as _left_operand)."""
    i = NAME.match(sql, start).end() if NAME.match(sql, start) else start
    if i < len(sql) and sql[i] == "(":
        i = _group_end(sql, i)
    return i


def _integer_division(sql, spell):
    """Each `a // b` (operands as _left_operand says) spelled by `spell(a, b)`, innermost first."""
    while "//" in sql:
        at = sql.index("//")
        left_end = len(sql[:at].rstrip())
        right_start = at + 2 + (len(sql[at + 2:]) - len(sql[at + 2:].lstrip()))
        left, right = _left_operand(sql, left_end), _right_operand(sql, right_start)
        sql = sql[:left] + spell(sql[left:left_end], sql[right_start:right]) + sql[right:]
    return sql


def _calls(sql, function, spell):
    """Each call `function(args)` spelled by `spell(args)`, args as written."""
    pattern = re.compile(r"\b%s\(" % function)
    while (match := pattern.search(sql)):
        end = _group_end(sql, match.end() - 1)
        sql = sql[:match.start()] + spell(sql[match.end():end - 1]) + sql[end:]
    return sql


def _split_last(args):
    """`x, p` as (x, p), splitting at the last top-level comma."""
    depth = 0
    for i in range(len(args) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(args[i], 0)
        if args[i] == "," and depth == 0:
            return args[:i].strip(), args[i + 1:].strip()
    raise ValueError("no second argument in %r" % args)


def _nearest_rank_clickhouse(args):
    x, p = _split_last(args)
    q = fractions.Fraction(p)
    rank = f"intDiv({q.numerator} * count({x}) + {q.denominator - 1}, {q.denominator})"
    return f"if(count({x}) = 0, NULL, arrayElement(arraySort(groupArray({x})), {rank}))"


ORDERED_LIST = re.compile(r"\blist\((\w+) ORDER BY (\w+) DESC\)")
EPOCH_MS = re.compile(r"\bepoch_ms\(CAST\((\w+) AS TIMESTAMP\)\)")

# (dialect, what the source writes, what it becomes, why). Applied in this order.
RULES = [
    ("spark", '"name"', "`name`",
     "Spark reads a double-quoted word as a string literal: \"from\" would be the constant 'from'.",
     lambda sql: re.sub(r'"(\w+)"', r"`\1`", sql)),
    ("spark", "a // b", "(a div b)", "Spark has no // operator; div is its integer division.",
     lambda sql: _integer_division(sql, lambda a, b: f"({a} div {b})")),
    ("spark", "[a, b, c]", "array(a, b, c)", "Spark has no list literal.",
     lambda sql: re.sub(r"\[([^\[\]]*)\]", r"array(\1)", sql)),
    ("spark", "epoch_ms(CAST(x AS TIMESTAMP))", "unix_millis(CAST(x AS TIMESTAMP))", "Spark's name for it.",
     lambda sql: EPOCH_MS.sub(r"unix_millis(CAST(\1 AS TIMESTAMP))", sql)),
    ("spark", "quantile_disc(x, p)", "CAST(percentile_disc(p) WITHIN GROUP (ORDER BY x) AS BIGINT)",
     "Spark's nearest-rank quantile, which returns a double.",
     lambda sql: _calls(sql, "quantile_disc",
                        lambda a: "CAST(percentile_disc(%s) WITHIN GROUP (ORDER BY %s) AS BIGINT)" % _split_last(a)[::-1])),
    ("spark", "list(x ORDER BY y DESC)", "transform(sort_array(collect_list(named_struct('k', y, 'v', x)), false), e -> e.v)",
     "Spark's collect_list takes no ORDER BY: the values are sorted as (key, value) pairs.",
     lambda sql: ORDERED_LIST.sub(r"transform(sort_array(collect_list(named_struct('k', \2, 'v', \1)), false), e -> e.v)", sql)),
    ("clickhouse", "a // b", "intDiv(a, b)",
     "In ClickHouse // starts a comment: SELECT 7 // 2 is 7, silently.",
     lambda sql: _integer_division(sql, lambda a, b: f"intDiv({a}, {b})")),
    ("clickhouse", "lead(x, ...), lag(x, ...)", "lead(toNullable(x), ...), lag(toNullable(x), ...)",
     "Past a partition's end ClickHouse gives the type's default ('' for a String), not NULL, "
     "unless the type is Nullable; leadInFrame does the same.",
     lambda sql: re.sub(r"\b(lead|lag)\((\w+)", r"\1(toNullable(\2)", sql)),
    ("clickhouse", "epoch_ms(CAST(x AS TIMESTAMP))", "toUnixTimestamp64Milli(parseDateTime64BestEffort(x, 3, 'UTC'))",
     "ClickHouse's CAST(... AS TIMESTAMP) drops the milliseconds.",
     lambda sql: EPOCH_MS.sub(r"toUnixTimestamp64Milli(parseDateTime64BestEffort(\1, 3, 'UTC'))", sql)),
    ("clickhouse", "quantile_disc(x, p)", "if(count(x) = 0, NULL, arrayElement(arraySort(groupArray(x)), ceil(p * count(x))))",
     "No ClickHouse quantile is the nearest rank at every p (quantileExactLow is not at 0.9); the rank "
     "ceil(p * n) is computed in integers from p as a fraction.",
     lambda sql: _calls(sql, "quantile_disc", _nearest_rank_clickhouse)),
    ("clickhouse", "list(x ORDER BY y DESC)", "arrayMap(e -> e.2, arrayReverseSort(e -> e.1, groupArray((y, x))))",
     "ClickHouse's groupArray takes no ORDER BY: the values are sorted as (key, value) pairs.",
     lambda sql: ORDERED_LIST.sub(r"arrayMap(e -> e.2, arrayReverseSort(e -> e.1, groupArray((\2, \1))))", sql)),
    ("clickhouse", "SELECT ...;", "SELECT ... SETTINGS join_use_nulls = 1",
     "A LEFT JOIN miss in ClickHouse is the type's default (0) unless join_use_nulls is set.",
     lambda sql: sql.rstrip().rstrip(";") + "\nSETTINGS join_use_nulls = 1\n"),
]


def translate(sql, dialect):
    """The query `sql` (a Tools/sql source) in `dialect`: the source itself for DuckDB."""
    if dialect not in DIALECTS:
        raise ValueError("unknown dialect %r: one of %s" % (dialect, ", ".join(DIALECTS)))
    lines = sql.splitlines(keepends=True)
    header = 0
    while header < len(lines) and lines[header].startswith("--"):
        header += 1
    # The rules read code, not prose: a source has comments only in its header, kept as written.
    code = "".join(lines[header:])
    for rule_dialect, _, _, _, rewrite in RULES:
        if rule_dialect == dialect:
            code = rewrite(code)
    return "".join(lines[:header]) + code


def main():
    if sys.argv[1:] == ["--rules"]:
        for dialect, source, target, reason, _ in RULES:
            print(f"{dialect:<11} {source}  ->  {target}\n            {reason}")
        return
    parquet = sys.argv[4:] == ["--parquet"]
    if len(sys.argv) != 3 and not (len(sys.argv) in (4, 5) and sys.argv[2] == "--tables" and (len(sys.argv) == 4 or parquet)):
        sys.exit(__doc__.split("\n\n")[1])
    dialect = sys.argv[1]
    if sys.argv[2] == "--tables":
        print(table_statements(dialect, sys.argv[3], parquet))
    else:
        print(translate(open(sys.argv[2]).read(), dialect), end="")


if __name__ == "__main__":
    main()
