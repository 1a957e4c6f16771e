-- navlog exits: per screen, the sessions whose last view (the highest start_seq, then scene) it
-- was, split by how the session ended (sessions.ended: clean, background, unclean, open). Reads
-- screen_views and sessions.
WITH ranked AS (
    SELECT session, screen,
           row_number() OVER (PARTITION BY session ORDER BY start_seq DESC, scene DESC) AS r
    FROM screen_views
)
SELECT screen,
       count(*) AS exits,
       sum(CASE WHEN s.ended = 'clean' THEN 1 ELSE 0 END) AS clean,
       sum(CASE WHEN s.ended = 'background' THEN 1 ELSE 0 END) AS background,
       sum(CASE WHEN s.ended = 'unclean' THEN 1 ELSE 0 END) AS unclean,
       sum(CASE WHEN s.ended = 'open' THEN 1 ELSE 0 END) AS open
FROM ranked
JOIN sessions AS s ON s.session = ranked.session
WHERE r = 1
GROUP BY screen
ORDER BY exits DESC, screen ASC;
