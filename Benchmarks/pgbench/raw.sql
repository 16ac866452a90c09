-- A single-row INSERT of a revision's 2,341 bytes, as the benchmarks' RawPostgres sends it.
INSERT INTO pgbench_raw (log_id, revision, record) SELECT log_id, :rev + 1, whole FROM pgbench_payload;
\set rev :rev + 1
