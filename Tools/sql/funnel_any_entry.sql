-- navlog funnel --steps home,recipe,reviews --mode ordered --entry any --window 1h: every step-1
-- view may start an attempt; the attempt that reaches the most steps counts (the earliest of those).
-- Each next step is the first later view of that screen within the window of the attempt's step 1.
-- Per step: sessions reaching it, drop-off, conversion from the previous step and from step 1 in
-- basis points (rounded half up), median and p90 time from step 1 (ms, nearest rank).
-- Edit the params CTE for another funnel. Reads screen_views.
WITH params AS (SELECT 'home' AS s1, 'recipe' AS s2, 'reviews' AS s3, 3600000 AS window_ms),
v AS (
    SELECT session, screen, epoch_ms(CAST(start_ts AS TIMESTAMP)) AS t,
           row_number() OVER (PARTITION BY session ORDER BY start_seq, scene) AS k
    FROM screen_views
),
attempts AS (
    SELECT v.session, v.k AS k1, v.t AS t1 FROM v, params WHERE v.screen = s1
),
a2 AS (
    SELECT a.*, (SELECT min(v.k) FROM v, params WHERE v.session = a.session AND v.k > a.k1 AND v.screen = s2 AND v.t <= a.t1 + window_ms) AS k2
    FROM attempts a
),
a3 AS (
    SELECT a.*, (SELECT min(v.k) FROM v, params WHERE v.session = a.session AND v.k > a.k2 AND v.screen = s3 AND v.t <= a.t1 + window_ms) AS k3
    FROM a2 a
),
best AS (
    SELECT *, row_number() OVER (PARTITION BY session ORDER BY (k2 IS NOT NULL)::INT + (k3 IS NOT NULL)::INT DESC, k1) AS r
    FROM a3
),
chosen AS (
    SELECT b.session, b.t1, v2.t AS t2, v3.t AS t3
    FROM best b
    LEFT JOIN v v2 ON v2.session = b.session AND v2.k = b.k2
    LEFT JOIN v v3 ON v3.session = b.session AND v3.k = b.k3
    WHERE b.r = 1
),
reached AS (
    SELECT 1 AS step, 0 AS dt FROM chosen
    UNION ALL SELECT 2, t2 - t1 FROM chosen WHERE t2 IS NOT NULL
    UNION ALL SELECT 3, t3 - t1 FROM chosen WHERE t3 IS NOT NULL
),
counts AS (
    SELECT step, count(*) AS sessions, quantile_disc(dt, 0.5) AS median_ms, quantile_disc(dt, 0.9) AS p90_ms
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
