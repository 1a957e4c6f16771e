-- navlog screens: per screen, its views, the sessions with at least one view, and dwell median,
-- p90 and total (ms) over the views that did not crash (crashed views count as views).
-- Reads the screen_views table of `navlog export --table screen_views`. Quantiles are exact by
-- nearest rank (the value at rank ceil(p * n)); aggregates skip the NULL a crashed view's dwell is.
WITH d AS (SELECT screen, session, CASE WHEN crashed THEN NULL ELSE dwell_ms END AS dwell FROM screen_views)
SELECT screen,
       count(*) AS views,
       count(DISTINCT session) AS sessions,
       quantile_disc(dwell, 0.5) AS dwell_median_ms,
       quantile_disc(dwell, 0.9) AS dwell_p90_ms,
       coalesce(sum(dwell), 0) AS dwell_total_ms
FROM d
GROUP BY screen
ORDER BY views DESC, screen ASC;
