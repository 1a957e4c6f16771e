-- navlog tabs, the switch matrix: how often a path's next view (among views under a tab) is under
-- another tab. Reads screen_views.
WITH v AS (
    SELECT tab, lag(tab) OVER (PARTITION BY session, scene ORDER BY start_seq) AS prev
    FROM screen_views
    WHERE tab IS NOT NULL
)
SELECT prev AS "from", tab AS "to", count(*) AS "count"
FROM v
WHERE prev IS NOT NULL AND prev <> tab
GROUP BY prev, tab
ORDER BY "count" DESC, "from" ASC, "to" ASC;
