#if LMDB
    import CLMDB

    // The durability modes as LMDB spells them: environment flags, fixed when the environment opens.
    extension ChangeLog.Durability {
        /// The LMDB environment flags of the mode: none for ``durable``, `MDB_NOMETASYNC` for
        /// ``noMetaSync``, `MDB_NOSYNC` for ``noSync``.
        var lmdbFlags: UInt32 {
            switch self {
            case .noMetaSync: UInt32(MDB_NOMETASYNC)
            case .noSync: UInt32(MDB_NOSYNC)
            default: 0
            }
        }
    }
#endif
