import Foundation
import Testing

@testable import PaylogProviders

/// The hand-written percent decoder against Foundation's `removingPercentEncoding`, the reference.
@Suite("Percent decoding")
struct PercentDecodingTests {
    @Test("random text with good, bad and partial escapes decodes exactly as Foundation decodes it")
    func agreesWithFoundation() {
        var state: UInt64 = 42
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let pieces = ["%", "%2", "%20", "%7B", "%7b", "%C3%A9", "%C3", "%FF", "%E2%82%AC", "%zz", "%%", "a", "Z", "0",
                      "+", "=", "&", "é", "€", "😀", "%F0%9F%98%80", "%00", " "]
        var nils = 0
        for _ in 0..<20_000 {
            let text = (0..<Int(next() % 8)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined()
            let mine = text.percentDecoded
            #expect(mine == text.removingPercentEncoding, "\(text)")
            if mine == nil { nils += 1 }
        }
        #expect(nils > 1_000)
        #expect("plain".percentDecoded == "plain")
        #expect("%7B%22a%22%3A1%7D".percentDecoded == #"{"a":1}"#)
    }
}
