-- navlog funnel --steps home,recipe,reviews --mode strict --entry first --window 1h: per step, the
-- sessions reaching it, the drop-off, the conversion from the previous step and from step 1 in
-- basis points (rounded half up), and the median and p90 time from step 1 (ms, nearest rank).
-- A session's views in start_seq order (then scene); the attempt starts at its first step-1 view,
-- and each next step must be the very next view, of that screen, within the window of step 1.
-- Edit the params CTE for another funnel. Reads screen_views.
--   Spark SQL   percentile_disc(...) WITHIN GROUP for quantile_disc; div for //.
--   ClickHouse  correlated subqueries become ASOF or argMin joins; intDiv for //.
WITH params AS (SELECT 'home' AS s1, 'recipe' AS s2, 'reviews' AS s3, 3600000 AS window_ms),
v AS (
    SELECT session, screen, epoch_ms(CAST(start_ts AS TIMESTAMP)) AS t,
           row_number() OVER (PARTITION BY session ORDER BY start_seq, scene) AS k
    FROM screen_views
),
first_step AS (
    SELECT v.session, min(k) AS k1 FROM v, params WHERE screen = s1 GROUP BY v.session
),
step1 AS (
    SELECT f.session, f.k1, v.t AS t1 FROM first_step f JOIN v ON v.session = f.session AND v.k = f.k1
),
step2 AS (
    SELECT s.session, s.t1,
           (SELECT min(v.k) FROM v, params WHERE v.session = s.session AND v.k = s.k1 + 1 AND v.screen = s2 AND v.t <= s.t1 + window_ms) AS k2
    FROM step1 s
),
step2t AS (
    SELECT s.session, s.t1, s.k2, v.t AS t2 FROM step2 s LEFT JOIN v ON v.session = s.session AND v.k = s.k2
),
step3 AS (
    SELECT s.session, s.t1, s.t2,
           (SELECT min(v.t) FROM v WHERE v.session = s.session AND v.k = (
                SELECT min(w.k) FROM v AS w, params WHERE w.session = s.session AND w.k = s.k2 + 1 AND w.screen = s3 AND w.t <= s.t1 + window_ms)
           ) AS t3
    FROM step2t s WHERE s.k2 IS NOT NULL
),
reached AS (
    SELECT 1 AS step, (SELECT s1 FROM params) AS screen, 0 AS dt FROM step1
    UNION ALL SELECT 2, (SELECT s2 FROM params), t2 - t1 FROM step2t WHERE k2 IS NOT NULL
    UNION ALL SELECT 3, (SELECT s3 FROM params), t3 - t1 FROM step3 WHERE t3 IS NOT NULL
),
counts AS (
    SELECT step, any_value(screen) AS screen, count(*) AS sessions,
           quantile_disc(dt, 0.5) AS median_ms, quantile_disc(dt, 0.9) AS p90_ms
    FROM reached GROUP BY step
),
steps AS (SELECT * FROM (VALUES (1), (2), (3)) AS s(step))
SELECT steps.step,
       CASE steps.step WHEN 1 THEN (SELECT s1 FROM params) WHEN 2 THEN (SELECT s2 FROM params) ELSE (SELECT s3 FROM params) END AS screen,
       coalesce(c.sessions, 0) AS sessions,
       CASE WHEN steps.step = 1 THEN 0 ELSE coalesce(p.sessions, 0) - coalesce(c.sessions, 0) END AS drop_off,
       CASE WHEN steps.step = 1 THEN (CASE WHEN coalesce(c.sessions, 0) > 0 THEN 10000 END)
            WHEN coalesce(p.sessions, 0) > 0 THEN (coalesce(c.sessions, 0) * 10000 + p.sessions // 2) // p.sessions END AS conversion_from_previous_bp,
       CASE WHEN coalesce(f.sessions, 0) > 0 THEN (coalesce(c.sessions, 0) * 10000 + f.sessions // 2) // f.sessions END AS conversion_from_first_bp,
       c.median_ms, c.p90_ms
FROM steps
LEFT JOIN counts c ON c.step = steps.step
LEFT JOIN counts p ON p.step = steps.step - 1
LEFT JOIN counts f ON f.step = 1
ORDER BY steps.step;
