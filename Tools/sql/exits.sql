-- navlog exits: per screen, the sessions whose last view (the highest start_seq, then scene) it
-- was, split by how the session ended (sessions.ended: clean, background, unclean, open). Reads
-- screen_views and sessions.
-- Runs on Spark SQL and ClickHouse as is (FILTER: use countIf(...) on ClickHouse, or
-- sum(CASE ...) anywhere).
WITH ranked AS (
    SELECT session, screen,
           row_number() OVER (PARTITION BY session ORDER BY start_seq DESC, scene DESC) AS r
    FROM screen_views
)
SELECT screen,
       count(*) AS exits,
       count(*) FILTER (WHERE s.ended = 'clean') AS clean,
       count(*) FILTER (WHERE s.ended = 'background') AS background,
       count(*) FILTER (WHERE s.ended = 'unclean') AS unclean,
       count(*) FILTER (WHERE s.ended = 'open') AS open
FROM ranked
JOIN sessions AS s USING (session)
WHERE r = 1
GROUP BY screen
ORDER BY exits DESC, screen ASC;
