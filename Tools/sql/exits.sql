-- navlog exits: per screen, the sessions whose last view (the highest start_seq, then scene) it
-- was, split into clean ends and unclean ones (that view crashed). Reads screen_views.
-- Runs on Spark SQL and ClickHouse as is (FILTER: use countIf(...) on ClickHouse, or
-- sum(CASE ...) anywhere).
WITH ranked AS (
    SELECT session, screen, crashed,
           row_number() OVER (PARTITION BY session ORDER BY start_seq DESC, scene DESC) AS r
    FROM screen_views
)
SELECT screen,
       count(*) AS exits,
       count(*) FILTER (WHERE NOT crashed) AS clean,
       count(*) FILTER (WHERE crashed) AS unclean
FROM ranked
WHERE r = 1
GROUP BY screen
ORDER BY exits DESC, screen ASC;
