-- navlog screens: per screen, its views, the sessions with at least one view, and dwell median,
-- p90 and total (ms) over the views that did not crash (crashed views count as views).
-- Reads the screen_views table of `navlog export --table screen_views`. Quantiles are exact by
-- nearest rank (the value at rank ceil(p * n)); aggregates skip the NULL a crashed view's dwell is.
-- The sessions are counted apart from the quantiles: in one aggregate with count(DISTINCT session),
-- Spark groups by screen and session first and carries two quantile buffers per pair (twice the
-- CPU time at 1M events, Tools/bench/run --only sql).
WITH d AS (SELECT screen, session, CASE WHEN crashed THEN NULL ELSE dwell_ms END AS dwell FROM screen_views),
dwells AS (
    SELECT screen,
           count(*) AS views,
           quantile_disc(dwell, 0.5) AS dwell_median_ms,
           quantile_disc(dwell, 0.9) AS dwell_p90_ms,
           coalesce(sum(dwell), 0) AS dwell_total_ms
    FROM d
    GROUP BY screen
),
reach AS (SELECT screen, count(DISTINCT session) AS sessions FROM d GROUP BY screen)
SELECT dwells.screen AS screen, views, sessions, dwell_median_ms, dwell_p90_ms, dwell_total_ms
FROM dwells JOIN reach ON reach.screen = dwells.screen
ORDER BY views DESC, screen ASC;
