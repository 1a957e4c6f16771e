-- navlog exits --crash-paths 3: the sequences of the last 3 screens of sessions that ended
-- uncleanly (sessions.ended = 'unclean': in the foreground, not in the background), with the
-- number of such sessions. Reads screen_views and sessions.
WITH ranked AS (
    SELECT session, screen,
           row_number() OVER (PARTITION BY session ORDER BY start_seq DESC, scene DESC) AS r
    FROM screen_views
),
unclean AS (SELECT session FROM sessions WHERE ended = 'unclean'),
paths AS (
    SELECT session, list(screen ORDER BY r DESC) AS path
    FROM ranked
    WHERE r <= 3 AND session IN (SELECT session FROM unclean)
    GROUP BY session
)
SELECT path, count(*) AS sessions
FROM paths
GROUP BY path
ORDER BY sessions DESC, path ASC;
