-- navlog screens: per screen, its views, the sessions with at least one view, and dwell median,
-- p90 and total (ms) over the views that did not crash (crashed views count as views).
-- Reads the screen_views table of `navlog export --table screen_views`.
-- Quantiles are exact by nearest rank (the value at rank ceil(p*n)):
--   DuckDB      quantile_disc(dwell_ms, 0.5)                         (as here)
--   Spark SQL   percentile_disc(0.5) WITHIN GROUP (ORDER BY dwell_ms) FILTER (WHERE NOT crashed)  (Spark 3.3+)
--   ClickHouse  quantileExactLowIf(0.5)(dwell_ms, NOT crashed) is close but takes the lower median
--               for even counts; use arraySort + arrayElement(…, toUInt64(ceil(0.5 * n))) for an exact match.
SELECT screen,
       count(*) AS views,
       count(DISTINCT session) AS sessions,
       quantile_disc(dwell_ms, 0.5) FILTER (WHERE NOT crashed) AS dwell_median_ms,
       quantile_disc(dwell_ms, 0.9) FILTER (WHERE NOT crashed) AS dwell_p90_ms,
       coalesce(sum(dwell_ms) FILTER (WHERE NOT crashed), 0) AS dwell_total_ms
FROM screen_views
GROUP BY screen
ORDER BY views DESC, screen ASC;
