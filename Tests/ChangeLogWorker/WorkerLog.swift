import ChangeLog
import ChangeLogFile

#if Postgres
    import ChangeLogPostgres
#endif

/// Opens the worker's log, `--log`, on the engine `--engine` names: `file` (a log file),
/// `postgres` (`--log` is a PostgreSQL log's URL), else LMDB (a log directory).
func openWorkerLog(_ arguments: Arguments, options: ChangeLog.Options = ChangeLog.Options()) throws -> ChangeLog {
    let path = arguments.string("log")
    switch arguments.values["engine"] {
    case "file":
        return try ChangeLog(fileAt: path, options: options)
    case "postgres":
        #if Postgres
            return try ChangeLog(url: path, options: options)
        #else
            fail("this worker was built without the trait Postgres")
        #endif
    default:
        return try ChangeLog(path: path, options: options)
    }
}
