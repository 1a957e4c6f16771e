-- navlog deeplinks: per outcome and URL pattern, the links opened and how many times the session
-- then backed out past the linked screen. Reads the deeplinks table of
-- `navlog export --table deeplinks` (navlog folds the stacks to decide backed_out, which plain
-- events cannot show). Runs on Spark SQL and ClickHouse with sum(CASE ...) for FILTER.
SELECT outcome, pattern, count(*) AS links, count(*) FILTER (WHERE backed_out) AS backed_out
FROM deeplinks
GROUP BY outcome, pattern
ORDER BY links DESC, outcome ASC, pattern ASC;
