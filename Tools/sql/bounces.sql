-- navlog bounces --within 5s: a view entered by push whose path's next view is entered by pop,
-- shows the screen before the push, and came within 5,000 ms. Per screen with pushes: pushes,
-- bounces, and the bounce rate as a percentage (bounces per 10,000 pushes rounded half up, over
-- 100). Reads screen_views.
WITH v AS (
    SELECT screen, entered_by, dwell_ms,
           lag(screen) OVER w AS prev_screen,
           lead(screen) OVER w AS next_screen,
           lead(entered_by) OVER w AS next_entered_by
    FROM screen_views
    WINDOW w AS (PARTITION BY session, scene ORDER BY start_seq)
),
tally AS (
    SELECT screen,
           sum(CASE WHEN entered_by = 'push' THEN 1 ELSE 0 END) AS pushes,
           sum(CASE WHEN entered_by = 'push' AND next_entered_by = 'pop' AND next_screen = prev_screen
                         AND dwell_ms <= 5000 THEN 1 ELSE 0 END) AS bounces
    FROM v
    GROUP BY screen
)
SELECT screen, pushes, bounces, CAST((bounces * 10000 + pushes // 2) // pushes AS DOUBLE) / 100 AS rate_pct
FROM tally
WHERE pushes > 0
ORDER BY bounces DESC, pushes DESC, screen ASC;
