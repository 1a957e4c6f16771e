-- navlog depth: how many views had each stack depth, in stacks and in sheets separately.
-- Reads screen_views (its in_sheet column). Spark SQL / ClickHouse: sum(CASE ...) for FILTER.
SELECT depth,
       count(*) FILTER (WHERE NOT in_sheet) AS stack_views,
       count(*) FILTER (WHERE in_sheet) AS sheet_views
FROM screen_views
GROUP BY depth
ORDER BY depth ASC;
