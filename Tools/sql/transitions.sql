-- navlog transitions: counts of from -> to between consecutive screen views of a path (the views
-- of one session and scene, in order). Reads the transitions table of
-- `navlog export --table transitions`.
SELECT from_screen AS "from", to_screen AS "to", count(*) AS "count"
FROM transitions
GROUP BY from_screen, to_screen
ORDER BY "count" DESC, "from" ASC, "to" ASC;
