import CFileWriteback
import Foundation
import Testing

@testable import ChangeLog

@Suite("Data file reserve")
struct DataFileReserveTests {
    @Test("the data file keeps zeros ahead of its used end, inside the map, and the data stays intact")
    func zerosAhead() throws {
        try withTemporaryDirectory { path in
            let value = [UInt8](repeating: 0xAB, count: 3000)
            do {
                let environment = try LMDBEnvironment.open(directory: path, configuration: .init(mapSize: 64 << 20))
                let database = try environment.write { try $0.openDatabase(named: "values", create: true) }
                for number in UInt64(0)..<400 {
                    try environment.write(reservingSpace: true) { transaction throws in
                        try transaction.put(value, forKey: number.bigEndianKey, in: database)
                    }
                    let info = environment.info()
                    let size = try fileSize(path + "/data.mdb")
                    // At least half the target ahead after each commit that did not use it up;
                    // never more than a whole target plus a page, never past the map.
                    #expect(size >= info.usedBytes, "revision \(number)")
                    #expect(size <= info.usedBytes + DataFileReserve.target(usedBytes: info.usedBytes) + info.pageSize)
                    #expect(size <= info.mapSize)
                }
                let info = environment.info()
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/data.mdb"))
                #expect(bytes.count > info.usedBytes, "the last commits left space ahead")
                #expect(bytes[info.usedBytes...].allSatisfy { $0 == 0 })
            }
            // Reopened, the environment reads every value back.
            let reopened = try LMDBEnvironment.open(directory: path)
            let database = try reopened.write { try $0.openDatabase(named: "values", create: false) }
            try reopened.read { transaction throws in
                #expect(try transaction.statistics(of: database).entries == 400)
                #expect(try transaction.value(forKey: UInt64(399).bigEndianKey, in: database) == value)
            }
        }
    }

    @Test("the reserve follows the used size: an eighth, from 64 KB to 4 MB")
    func targets() {
        #expect(DataFileReserve.target(usedBytes: 8 << 10) == 64 << 10)
        #expect(DataFileReserve.target(usedBytes: 8 << 20) == 1 << 20)
        #expect(DataFileReserve.target(usedBytes: 1 << 30) == 4 << 20)
    }

    @Test("the reserve stops at the end of a small map, and the map still grows")
    func smallMap() throws {
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(directory: path, configuration: .init(mapSize: 96 << 10))
            let database = try environment.write { try $0.openDatabase(named: "values", create: true) }
            let value = [UInt8](repeating: 0xCD, count: 3000)
            for number in UInt64(0)..<100 {
                try environment.write(reservingSpace: true) { transaction throws in
                    try transaction.put(value, forKey: number.bigEndianKey, in: database)
                }
                #expect(try fileSize(path + "/data.mdb") <= environment.info().mapSize)
            }
            #expect(environment.info().mapSize > 96 << 10)
            try environment.read { transaction throws in
                #expect(try transaction.statistics(of: database).entries == 100)
            }
        }
    }

    @Test("transactions that do not ask for it, such as opening databases, leave the file as it is")
    func onlyWhenAsked() throws {
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(directory: path)
            let database = try environment.write { try $0.openDatabase(named: "values", create: true) }
            try environment.write { try $0.put([1, 2, 3], forKey: [1], in: database) }
            #expect(try fileSize(path + "/data.mdb") == environment.info().usedBytes)
            _ = try environment.write { try $0.openDatabase(named: "values", create: false) }
            #expect(try fileSize(path + "/data.mdb") == environment.info().usedBytes)
            try environment.write(reservingSpace: true) { try $0.put([4, 5, 6], forKey: [2], in: database) }
            #expect(try fileSize(path + "/data.mdb") > environment.info().usedBytes)
        }
    }

    @Test("a commit larger than the space ahead grows the file; the next one keeps space ahead again")
    func largeCommit() throws {
        try withTemporaryDirectory { path in
            let environment = try LMDBEnvironment.open(directory: path, configuration: .init(mapSize: 64 << 20))
            let database = try environment.write { try $0.openDatabase(named: "values", create: true) }
            let value = [UInt8](repeating: 0xEF, count: 3000)
            try environment.write(reservingSpace: true) { transaction throws in
                for number in UInt64(0)..<700 {
                    try transaction.put(value, forKey: number.bigEndianKey, in: database)
                }
            }
            #expect(try fileSize(path + "/data.mdb") == environment.info().usedBytes)
            try environment.write(reservingSpace: true) { try $0.put(value, forKey: [0xFF], in: database) }
            let used = environment.info().usedBytes
            #expect(try fileSize(path + "/data.mdb") >= used + DataFileReserve.target(usedBytes: used) / 2)
        }
    }

    @Test("a failed reserve cuts the file back and is not tried again until the file's size changes")
    func failure() throws {
        try withTemporaryDirectory { path throws in
            let file = path + "/file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data(repeating: 7, count: 8192)))
            // Writes to a descriptor opened for reading fail (EBADF), as they would on a full disk.
            let descriptor = open(file, O_RDONLY)
            defer { close(descriptor) }
            let first = DataFileReserve.ensure(
                descriptor: descriptor, usedBytes: 8192, pageSize: 4096, mapSize: 1 << 20, startWriteback: true)
            #expect(first == .failed(atSize: 8192))
            #expect(try fileSize(file) == 8192)
            let again = DataFileReserve.ensure(
                descriptor: descriptor, usedBytes: 8192, pageSize: 4096, mapSize: 1 << 20, startWriteback: true,
                unlessSize: 8192)
            #expect(again == .unchanged)
            let writable = open(file, O_RDWR)
            defer { close(writable) }
            let extended = DataFileReserve.ensure(
                descriptor: writable, usedBytes: 8192, pageSize: 4096, mapSize: 1 << 20, startWriteback: true)
            #expect(extended == .extended)
            #expect(try fileSize(file) == 8192 + DataFileReserve.target(usedBytes: 8192))
        }
    }

    @Test("the zeros' writeback starts on a file's range and leaves its bytes as written; a bad descriptor fails")
    func writebackStart() throws {
        try withTemporaryDirectory { path throws in
            let file = path + "/file"
            let descriptor = open(file, O_RDWR | O_CREAT, 0o600)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            let bytes = [UInt8](repeating: 0x5A, count: 64 << 10)
            #expect(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 4096) } == bytes.count)
            #expect(changelog_start_writeback(descriptor, 4096, Int64(bytes.count)) == 0)
            #expect(try fileSize(file) == 4096 + bytes.count)
            var read = [UInt8](repeating: 0, count: bytes.count)
            #expect(read.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 4096) } == bytes.count)
            #expect(read == bytes)
            // A descriptor that is not open is refused (EBADF); on Linux, so is a negative length
            // (EINVAL), where other systems flush the whole file.
            let notOpen = changelog_start_writeback(-1, 0, 4096)
            let notOpenError = errno
            #expect(notOpen == -1 && notOpenError == EBADF)
            #if os(Linux)
                let negative = changelog_start_writeback(descriptor, 0, -1)
                let negativeError = errno
                #expect(negative == -1 && negativeError == EINVAL)
            #endif
        }
    }

    private func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }
}
