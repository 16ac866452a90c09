-- The five-statement transaction of an append that reads the log's end.
BEGIN;
SELECT id FROM changelog_logs WHERE id = (SELECT log_id FROM pgbench_payload) FOR UPDATE;
SELECT coalesce(latest.revision, 0) AS rev,
    coalesce((SELECT max(chunk_id) FROM changelog_chunks WHERE log_id = (SELECT log_id FROM pgbench_payload)), 0) AS ch
FROM (SELECT 1) AS one LEFT JOIN (
    SELECT revision, record FROM changelog_records WHERE log_id = (SELECT log_id FROM pgbench_payload)
    ORDER BY revision DESC LIMIT 1
) AS latest ON true \gset
WITH chunks AS (INSERT INTO changelog_chunks (log_id, chunk_id, chunk)
        SELECT log_id, :ch + 1, c1 FROM pgbench_payload UNION ALL SELECT log_id, :ch + 2, c2 FROM pgbench_payload
        UNION ALL SELECT log_id, :ch + 3, c3 FROM pgbench_payload),
    records AS (INSERT INTO changelog_records (log_id, revision, record) SELECT log_id, :rev + 1, rec FROM pgbench_payload)
SELECT pg_notify('changelog', 'pgbench');
COMMIT;
