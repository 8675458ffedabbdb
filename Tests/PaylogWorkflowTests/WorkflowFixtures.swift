import Foundation
import PaylogDomain
import PaylogProviders

/// Real provider URLs for the workflow tests, built the way the providers document them.
enum WorkflowFixtures {
    static func squareRequest(payment: String, state: String, cents: Int64 = 500) throws -> LaunchRequest {
        let spec = LaunchSpec(
            provider: .square, paymentID: try PaymentID(payment), amount: Money(minorUnits: cents, currency: try CurrencyCode("USD")),
            reference: state, callbackBaseURL: "myshop://paylog-callback", clientID: "sq0idp-TEST")
        return try Providers.parseLaunch(try Providers.buildLaunchURL(for: spec))
    }

    static func squareCallback(_ json: String) throws -> CallbackOutcome {
        let encoded = json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        return try Providers.parseCallback("myshop://paylog-callback?data=\(encoded)", provider: .square)
    }

    static func squareOnline(state: String, tx: String = "TX1", client: String = "CTX1") throws -> CallbackOutcome {
        try squareCallback(#"{"status":"ok","transaction_id":"\#(tx)","client_transaction_id":"\#(client)","state":"\#(state)"}"#)
    }

    static func squareOffline(state: String, client: String) throws -> CallbackOutcome {
        try squareCallback(#"{"status":"ok","client_transaction_id":"\#(client)","state":"\#(state)"}"#)
    }

    static func squareError(state: String, code: String = "payment_canceled") throws -> CallbackOutcome {
        try squareCallback(#"{"status":"error","error_code":"\#(code)","state":"\#(state)"}"#)
    }
}
