-- navlog transitions --steps 5 --top 3: over the first 5 views of every path (the views of one
-- session and scene in start_seq order), the transitions from position p to p + 1, each node
-- `p_screen`, or `p_other` for a screen outside the 3 most common at its position (by paths, then
-- name). Reads screen_views.
WITH v AS (
    SELECT session, scene, screen,
           row_number() OVER (PARTITION BY session, scene ORDER BY start_seq) AS pos
    FROM screen_views
),
ranked AS (
    SELECT pos, screen, row_number() OVER (PARTITION BY pos ORDER BY count(*) DESC, screen ASC) AS r
    FROM v WHERE pos <= 5 GROUP BY pos, screen
),
labeled AS (
    SELECT v.session, v.scene, v.pos, CASE WHEN ranked.r <= 3 THEN v.screen ELSE 'other' END AS node
    FROM v JOIN ranked ON ranked.pos = v.pos AND ranked.screen = v.screen
    WHERE v.pos <= 5
),
pairs AS (
    SELECT pos, node, lead(node) OVER (PARTITION BY session, scene ORDER BY pos) AS next_node
    FROM labeled
)
SELECT pos AS step, concat(pos, '_', node) AS "from", concat(pos + 1, '_', next_node) AS "to", count(*) AS "count"
FROM pairs
WHERE next_node IS NOT NULL
GROUP BY pos, node, next_node
ORDER BY step ASC, "count" DESC, "from" ASC, "to" ASC;
