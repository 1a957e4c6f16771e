-- navlog tabs: per tab (the selected tab when a view began), its views, the dwell of its views that
-- did not crash, and that dwell's share of all tabs' in basis points (rounded half up).
-- Reads screen_views. Spark SQL / ClickHouse: div or intDiv for //, sum(CASE ...) for FILTER.
WITH t AS (
    SELECT tab, count(*) AS views, coalesce(sum(dwell_ms) FILTER (WHERE NOT crashed), 0) AS dwell_ms
    FROM screen_views
    WHERE tab IS NOT NULL
    GROUP BY tab
),
total AS (SELECT sum(dwell_ms) AS total FROM t)
SELECT tab, views, dwell_ms,
       CASE WHEN total = 0 THEN 0 ELSE (dwell_ms * 10000 + total // 2) // total END AS share_bp
FROM t, total
ORDER BY views DESC, tab ASC;
