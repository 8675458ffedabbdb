@testable import PaylogStore
import Testing

@Suite("Rows a stream fold derives")
struct ViewRowsTests {
    @Test("rows keep their bytes, database and position in the order added, from bytes or text")
    func keepsRows() {
        var rows = ViewRows()
        rows.append([1, 2, 3], for: [9], in: "payments")
        rows.append([4], for: "pay-é", in: "payments")
        rows.index("pay-1", for: "ref:x", in: "routes", position: 42)
        rows.index([], for: [], in: "routes", position: 7)
        #expect(rows.count == 4)
        #expect(rows.rows == [
            ViewRow(database: "payments", key: [9], value: [1, 2, 3]),
            ViewRow(database: "payments", key: Array("pay-é".utf8), value: [4]),
            ViewRow(database: "routes", key: Array("ref:x".utf8), value: Array("pay-1".utf8), position: 42),
            ViewRow(database: "routes", key: [], value: [], position: 7),
        ])
        rows.removeAll()
        #expect(rows.count == 0 && rows.rows.isEmpty)
        rows.append([5], for: [6], in: "payments")
        #expect(rows.rows == [ViewRow(database: "payments", key: [6], value: [5])])
    }

    @Test("a value written straight into the rows' buffer is the row its bytes would make, after and before others")
    func writesValueInPlace() {
        var rows = ViewRows()
        rows.index("pay-1", for: "ref:x", in: "routes", position: 3)
        rows.append(for: "pay-é", in: "payments") { writer in
            writer.byte(2)
            writer.varint(300)
            writer.string("square")
        }
        rows.append(for: "", in: "payments") { _ in }
        rows.append([7], for: "pay-2", in: "payments")
        var expected = ProtoWireWriter(capacity: 0)
        expected.byte(2)
        expected.varint(300)
        expected.string("square")
        #expect(rows.rows == [
            ViewRow(database: "routes", key: Array("ref:x".utf8), value: Array("pay-1".utf8), position: 3),
            ViewRow(database: "payments", key: Array("pay-é".utf8), value: expected.bytes),
            ViewRow(database: "payments", key: [], value: []),
            ViewRow(database: "payments", key: Array("pay-2".utf8), value: [7]),
        ])
    }
}
