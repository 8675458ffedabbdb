import Foundation

/// The zstd dictionary paylog compresses payment payloads with: trained on the payloads of seeded demo days
/// (launch URLs, callback URLs and their parsed fields, reconciliation lines) by `Tools/train-payload-dictionary.sh`.
///
/// ``PaymentWorkflow/openStore(at:)`` gives it to the store, which keeps it in the log the first time (a
/// compressed payload needs the dictionary it was compressed with, for as long as the log exists). Payment
/// evidence repeats most of its text from event to event (the URL schemes, the JSON keys of Square's `data`,
/// SumUp's and iZettle's parameter names), which the dictionary holds once, so a payload of about 300 bytes
/// is stored in about 60.
public enum PaymentPayloadDictionary {
    /// The dictionary's bytes.
    public static let bytes: [UInt8] = {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else {
            preconditionFailure("PaymentPayloadDictionary+Bytes.swift does not hold base64: regenerate it")
        }
        return Array(data)
    }()
}
