-- navlog paths --length 3 --top 0: every run of 3 consecutive screen views of a path (the views of
-- one session and scene, ordered by start_seq), with its occurrences and distinct sessions.
-- Reads the screen_views table of `navlog export --table screen_views`.
WITH ordered AS (
    SELECT session, screen,
           lead(screen, 1) OVER w AS s2,
           lead(screen, 2) OVER w AS s3
    FROM screen_views
    WINDOW w AS (PARTITION BY session, scene ORDER BY start_seq)
)
SELECT [screen, s2, s3] AS path, count(*) AS occurrences, count(DISTINCT session) AS sessions
FROM ordered
WHERE s3 IS NOT NULL
GROUP BY screen, s2, s3
ORDER BY occurrences DESC, path ASC;
