import Foundation
import PaylogStore
import Testing

/// `DecodingError.reason`: what `paylog import-log` and `paylog serve --config` say of JSON that did not decode.
@Suite("DecodingError.reason")
struct DecodingErrorReasonTests {
    struct Sample: Decodable {
        struct Inner: Decodable { var count: Int }
        var name: String
        var inner: Inner?
        var items: [Inner]?
    }

    func reason(_ json: String) -> String? {
        do {
            _ = try JSONDecoder().decode(Sample.self, from: Data(json.utf8))
            return nil
        } catch let error as DecodingError {
            return error.reason
        } catch {
            return "not a DecodingError: \(error)"
        }
    }

    @Test("each kind of failure names the field and what is wrong with it, in words, without Swift's type names")
    func reasons() {
        #expect(reason(#"{"name":"a"}"#) == nil)
        #expect(reason(#"{}"#) == #"the field "name" is missing"#)
        #expect(reason(#"{"name":null}"#) == #"the field "name" is null"#)
        #expect(reason(#"{"name":5}"#) == #"the field "name" is not a string"#)
        #expect(reason(#"{"name":"a","inner":{"count":"x"}}"#) == #"the field "inner.count" is not a whole number"#)
        #expect(reason(#"{"name":"a","items":[{"count":1},{}]}"#) == #"the field "items[1].count" is missing"#)
        let broken = reason(#"{"name":"#) ?? ""
        #expect(broken.hasPrefix("it is not valid JSON"))
        for text in [reason(#"{"name":"#), reason(#"{}"#), reason(#"{"name":5}"#)] {
            #expect(text?.contains("DecodingError") == false && text?.contains("Debug description") == false)
            #expect(text?.hasSuffix(".") == false, "the caller's sentence goes on after the reason")
        }
    }
}
