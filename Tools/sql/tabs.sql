-- navlog tabs: per tab (the selected tab when a view began), its views, the dwell of its views that
-- did not crash, and that dwell's share of all tabs' as a percentage (basis
-- points rounded half up, over 100).
-- Reads screen_views.
WITH t AS (
    SELECT tab, count(*) AS views, coalesce(sum(CASE WHEN crashed THEN 0 ELSE dwell_ms END), 0) AS dwell
    FROM screen_views
    WHERE tab IS NOT NULL
    GROUP BY tab
),
total AS (SELECT sum(dwell) AS all_dwell FROM t)
SELECT tab, views, dwell AS dwell_ms,
       CASE WHEN all_dwell = 0 THEN 0 ELSE CAST((dwell * 10000 + all_dwell // 2) // all_dwell AS DOUBLE) / 100 END AS share_pct
FROM t CROSS JOIN total
ORDER BY views DESC, tab ASC;
