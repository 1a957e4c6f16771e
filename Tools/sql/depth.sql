-- navlog depth: how many views had each stack depth, in stacks and in sheets separately.
-- Reads screen_views (its in_sheet column).
SELECT depth,
       sum(CASE WHEN in_sheet THEN 0 ELSE 1 END) AS stack_views,
       sum(CASE WHEN in_sheet THEN 1 ELSE 0 END) AS sheet_views
FROM screen_views
GROUP BY depth
ORDER BY depth ASC;
