SET client_min_messages = warning;
-- An empty log for the appends, the bytes of a churn revision (a 500-byte record, three chunks:
-- 2,341 bytes in all), and a table of the shape of the log's records for the raw INSERT.
INSERT INTO changelog_logs (name) VALUES ('pgbench-appends') ON CONFLICT (name) DO NOTHING;
CREATE FUNCTION pg_temp.random_bytes(n integer) RETURNS bytea LANGUAGE sql AS $$
    SELECT substring(string_agg(decode(md5(random()::text || g::text), 'hex'), ''::bytea) FROM 1 FOR n)
    FROM generate_series(1, (n + 15) / 16) AS g
$$;
DROP TABLE IF EXISTS pgbench_payload, pgbench_raw;
CREATE TABLE pgbench_payload (log_id bigint, rec bytea, c1 bytea, c2 bytea, c3 bytea, whole bytea);
INSERT INTO pgbench_payload (log_id, rec, c1, c2, c3)
    SELECT id, pg_temp.random_bytes(500), pg_temp.random_bytes(600), pg_temp.random_bytes(600),
        pg_temp.random_bytes(641)
    FROM changelog_logs WHERE name = 'pgbench-appends';
UPDATE pgbench_payload SET whole = rec || c1 || c2 || c3;
CREATE TABLE pgbench_raw (log_id bigint NOT NULL, revision bigint NOT NULL CHECK (revision >= 1),
    record bytea NOT NULL, PRIMARY KEY (log_id, revision));
