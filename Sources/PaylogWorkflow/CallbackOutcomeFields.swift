import PaylogDomain
import PaylogStore

/// The `CallbackOutcome` message's fields while ``EventPayloadDecoder`` reads them: a message field that occurs
/// more than once is merged, so each occurrence updates these rather than replacing them.
struct CallbackOutcomeFields {
    /// The provider named, nil until one is read or when the name read last is no provider's (then `provider`
    /// holds it, for the error).
    var knownProvider: Provider?
    var provider = ""
    var status = ""
    var invalidStatus = ""
    var transactionID: String?
    var clientTransactionID: String?
    var reference: String?
    var errorCode: String?
    var message: String?
    var isOffline = false
    var routingPaymentID: String?
    var fields: [String: String] = [:]
    /// False: map entries, the reference, the message and the routing payment id are checked but not kept
    /// (``EventPayloadDecoder``'s decoding without evidence: a ``Payment`` and its routes never read them).
    var keepsFields = true

    /// Reads one occurrence of the message from `r` into these fields.
    mutating func merge(_ r: inout ProtoWireReader) throws(ProtoWireReader.Failure) {
        while let (field, wireType) = try r.nextField() {
            switch (field, wireType) {
            case (1, 2):
                // Read where they lie: a provider's name and the two known statuses build no string.
                let bytes = try r.utf8Bytes("provider")
                knownProvider = Provider(utf8: bytes)
                provider = knownProvider?.rawValue ?? String(decoding: bytes, as: UTF8.self)
            case (2, 2):
                let bytes = try r.utf8Bytes("status")
                status = if bytes.elementsEqual("success".utf8) { "success" }
                    else if bytes.elementsEqual("failure".utf8) { "failure" }
                    else { String(decoding: bytes, as: UTF8.self) }
            case (3, 2): invalidStatus = try r.string("invalid_status")
            case (4, 2): transactionID = try r.string("transaction_id")
            case (5, 2): clientTransactionID = try r.string("client_transaction_id")
            case (6, 2) where keepsFields: reference = try r.string("reference")
            case (6, 2): try r.skipString("reference")
            case (7, 2): errorCode = try r.string("error_code")
            case (8, 2) where keepsFields: message = try r.string("message")
            case (8, 2): try r.skipString("message")
            case (9, 0): isOffline = try r.bool()
            case (10, 2) where keepsFields: routingPaymentID = try r.string("routing_payment_id")
            case (10, 2): try r.skipString("routing_payment_id")
            case (11, 2):
                // A map entry: key 1, value 2, either may be missing (then empty); a later entry for a key wins.
                var entry = ProtoWireReader(try r.lengthDelimited())
                var key = ""
                var value = ""
                while let (inner, innerType) = try entry.nextField() {
                    switch (inner, innerType) {
                    case (1, 2) where keepsFields: key = try entry.string("fields key")
                    case (2, 2) where keepsFields: value = try entry.string("fields value")
                    case (1, 2): try entry.skipString("fields key")
                    case (2, 2): try entry.skipString("fields value")
                    default: try entry.skip(wireType: innerType, field: inner)
                    }
                }
                if keepsFields { fields[key] = value }
            default: try r.skip(wireType: wireType, field: field)
            }
        }
    }

    /// The domain outcome, as `EventCodec` has always built it from the message.
    func outcome(rawURL: String) throws(ProtoWireReader.Failure) -> CallbackOutcome {
        guard let provider = knownProvider else {
            throw ProtoWireReader.Failure(reason: "unknown provider \(self.provider)")
        }
        let status: CallbackStatus = switch self.status {
        case "success": .success
        case "failure": .failure
        default: .invalid(invalidStatus)
        }
        var hint: RoutingHint?
        if let routingPaymentID, let id = try? PaymentID(routingPaymentID) { hint = .paymentID(id) }
        else if let reference { hint = .reference(reference) }
        return CallbackOutcome(
            provider: provider, rawURL: rawURL, status: status, transactionID: transactionID,
            clientTransactionID: clientTransactionID, reference: reference, errorCode: errorCode, message: message,
            isOffline: isOffline, routingHint: hint, fields: fields)
    }
}
