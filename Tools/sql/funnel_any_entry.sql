-- navlog funnel --steps home,recipe,reviews --mode ordered --entry any --window 1h: every step-1
-- view may start an attempt; the attempt that reaches the most steps counts (the earliest of those).
-- Each next step is the first later view of that screen within the window of the attempt's step 1.
-- Per step: sessions reaching it, drop-off, conversion from the previous step and from step 1 as
-- percentages (basis points rounded half up, over 100), median and p90 time from step 1 (ms,
-- nearest rank).
-- Edit the params CTE for another funnel. Reads screen_views. Each step is found by a join on the
-- session and a ranking, not by a correlated subquery, which Spark cannot resolve and ClickHouse
-- runs slowly or not at all.
WITH params AS (SELECT 'home' AS s1, 'recipe' AS s2, 'reviews' AS s3, 3600000 AS window_ms),
v AS (
    SELECT session, screen, epoch_ms(CAST(start_ts AS TIMESTAMP)) AS t,
           row_number() OVER (PARTITION BY session ORDER BY start_seq, scene) AS k
    FROM screen_views
),
v1 AS (SELECT v.session, v.k, v.t FROM v CROSS JOIN params WHERE v.screen = params.s1),
v2 AS (SELECT v.session, v.k, v.t FROM v CROSS JOIN params WHERE v.screen = params.s2),
v3 AS (SELECT v.session, v.k, v.t FROM v CROSS JOIN params WHERE v.screen = params.s3),
attempts AS (
    SELECT v1.session, v1.k AS k1, v1.t AS t1, v1.t + params.window_ms AS t_end FROM v1 CROSS JOIN params
),
a2 AS (
    SELECT session, k1, t_end, k AS k2, t AS t2 FROM (
        SELECT a.session, a.k1, a.t_end, w.k, w.t, row_number() OVER (PARTITION BY a.session, a.k1 ORDER BY w.k) AS r
        FROM attempts a JOIN v2 w ON w.session = a.session
        WHERE w.k > a.k1 AND w.t <= a.t_end) AS later
    WHERE r = 1
),
a3 AS (
    SELECT session, k1, t AS t3 FROM (
        SELECT a.session, a.k1, w.t, row_number() OVER (PARTITION BY a.session, a.k1 ORDER BY w.k) AS r
        FROM a2 a JOIN v3 w ON w.session = a.session
        WHERE w.k > a.k2 AND w.t <= a.t_end) AS later
    WHERE r = 1
),
best AS (
    SELECT a.session AS session, a.t1 AS t1, a2.t2 AS t2, a3.t3 AS t3,
           row_number() OVER (PARTITION BY a.session
                              ORDER BY CASE WHEN a3.t3 IS NOT NULL THEN 3 WHEN a2.t2 IS NOT NULL THEN 2 ELSE 1 END DESC, a.k1) AS r
    FROM attempts a
    LEFT JOIN a2 ON a2.session = a.session AND a2.k1 = a.k1
    LEFT JOIN a3 ON a3.session = a.session AND a3.k1 = a.k1
),
chosen AS (SELECT session, t1, t2, t3 FROM best WHERE r = 1),
totals AS (
    SELECT count(*) AS n1, count(t2) AS n2, count(t3) AS n3,
           quantile_disc(t2 - t1, 0.5) AS median2, quantile_disc(t2 - t1, 0.9) AS p90_2,
           quantile_disc(t3 - t1, 0.5) AS median3, quantile_disc(t3 - t1, 0.9) AS p90_3
    FROM chosen
),
steps AS (SELECT 1 AS step UNION ALL SELECT 2 UNION ALL SELECT 3),
counts AS (
    SELECT steps.step,
           CASE steps.step WHEN 1 THEN params.s1 WHEN 2 THEN params.s2 ELSE params.s3 END AS screen,
           CASE steps.step WHEN 1 THEN n1 WHEN 2 THEN n2 ELSE n3 END AS sessions,
           CASE steps.step WHEN 3 THEN n2 ELSE n1 END AS n_previous,
           n1 AS n_first,
           CASE steps.step WHEN 1 THEN (CASE WHEN n1 > 0 THEN 0 END) WHEN 2 THEN median2 ELSE median3 END AS median_ms,
           CASE steps.step WHEN 1 THEN (CASE WHEN n1 > 0 THEN 0 END) WHEN 2 THEN p90_2 ELSE p90_3 END AS p90_ms
    FROM steps CROSS JOIN params CROSS JOIN totals
)
SELECT step, screen, sessions, n_previous - sessions AS drop_off,
       CASE WHEN n_previous > 0 THEN CAST((sessions * 10000 + n_previous // 2) // n_previous AS DOUBLE) / 100 END AS conversion_from_previous_pct,
       CASE WHEN n_first > 0 THEN CAST((sessions * 10000 + n_first // 2) // n_first AS DOUBLE) / 100 END AS conversion_from_first_pct,
       median_ms, p90_ms
FROM counts
ORDER BY step;
