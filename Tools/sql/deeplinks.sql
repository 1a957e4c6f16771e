-- navlog deeplinks: per outcome and URL pattern, the links opened and how many times the session
-- then backed out past the linked screen. Reads the deeplinks table of
-- `navlog export --table deeplinks` (navlog folds the stacks to decide backed_out, which plain
-- events cannot show).
WITH d AS (SELECT outcome, pattern, CASE WHEN backed_out THEN 1 ELSE 0 END AS out FROM deeplinks)
SELECT outcome, pattern, count(*) AS links, sum(out) AS backed_out
FROM d
GROUP BY outcome, pattern
ORDER BY links DESC, outcome ASC, pattern ASC;
