import LMDBKit
import TestSupport
import Testing

/// The reader of `mdb_dump -a` text that the migration tests load old stores with.
@Suite("mdb_dump fixtures")
struct MDBDumpTests {
    static let dump = """
        VERSION=3
        format=bytevalue
        database=alpha
        type=btree
        mapsize=1073741824
        maxreaders=1024
        db_pagesize=4096
        HEADER=END
         01
         ff00
         0203
         
        DATA=END
        VERSION=3
        format=bytevalue
        database=beta
        type=btree
        mapsize=1073741824
        maxreaders=1024
        db_pagesize=4096
        HEADER=END
         6b6579
         76616c7565
        DATA=END

        """

    @Test("a dump loads into a fresh environment with every database, key and value as dumped")
    func loads() throws {
        let dump = try MDBDump(Self.dump)
        #expect(dump.sections.map(\.name) == ["alpha", "beta"])
        #expect(dump.sections[0].entries.map(\.key) == [[0x01], [0x02, 0x03]])
        #expect(dump.sections[0].entries.map(\.value) == [[0xff, 0x00], []])

        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try dump.load(into: dir.path)
        let environment = try Environment(path: dir.path)
        defer { environment.close() }
        try environment.write { txn in
            let alpha = try #require(try txn.openDatabase("alpha", create: false))
            let beta = try #require(try txn.openDatabase("beta", create: false))
            #expect(try txn.value(for: [0x01], in: alpha) == [0xff, 0x00])
            #expect(try txn.value(for: [0x02, 0x03], in: alpha) == [])
            #expect(try txn.value(for: Array("key".utf8), in: beta) == Array("value".utf8))
            #expect(try txn.count(alpha) == 2 && txn.count(beta) == 1)
        }
    }

    @Test(
        "a damaged dump is refused with the line that is wrong",
        arguments: [
            ("VERSION=3\nformat=print\nHEADER=END\nDATA=END\n", "line 2: only format=bytevalue"),
            ("VERSION=3\nduplicates=1\nHEADER=END\nDATA=END\n", "line 2: unknown header line duplicates=1"),
            ("database=a\nHEADER=END\n 0g\n 00\nDATA=END\n", "line 3: not a hex digit"),
            ("database=a\nHEADER=END\n 012\n 00\nDATA=END\n", "line 3: an odd number of hex digits"),
            ("database=a\nHEADER=END\n 01\nDATA=END\n", "line 4: a key without a value"),
            ("database=a\nHEADER=END\n 01\n 02\n", "the dump ends inside a database"),
            ("database=a\nHEADER=END\n 01\n 02\nDATA=ENDS\n", "line 5: expected a hex line or DATA=END"),
        ])
    func refusesDamage(text: String, message: String) {
        #expect {
            _ = try MDBDump(text)
        } throws: { error in
            (error as? MDBDump.ParseError)?.description.hasPrefix(message) == true
        }
    }
}
