-- :rev is the latest revision this client appended (0 to start), 3 chunks a revision.
\set ch :rev * 3
SELECT changelog_append(log_id, :rev, (SELECT record FROM changelog_records r WHERE r.log_id = p.log_id AND revision = :rev), :ch + 1,
    ARRAY[:ch + 1, :ch + 2, :ch + 3]::bigint[], ARRAY[c1, c2, c3], ARRAY[:rev + 1]::bigint[], ARRAY[rec], false, false, 'changelog')
FROM pgbench_payload AS p \gset
\set rev :rev + 1
