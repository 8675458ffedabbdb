import Foundation
import PaylogDomain

typealias F = Fixtures

/// One firing/quiet pair per rule id in `CompatibilityChecker.rules`.
enum RuleCases {
    static let all: [RuleCase] = url + squareRequest + squareCallback + sumUpRequest + sumUpCallback + iZettle

    static let url: [RuleCase] = [
        RuleCase(
            "url.unexpected-endpoint",
            fires: .request(
                F.squareLaunch().replacingOccurrences(of: "payment/create", with: "payment/refund")),
            quiet: .request(F.squareLaunch())),
        RuleCase(
            "url.lenient-parsing",
            fires: .request(
                "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=a1b2c3d4-sumup&title=Two coffees"),
            quiet: .request(
                "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=a1b2c3d4-sumup&title=Two%20coffees")
        ),
        RuleCase(
            "url.undecodable-percent-encoding",
            fires: .request("sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=k&title=Caf%E9"),
            quiet: .request("sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=k&title=Caf%C3%A9")),
        RuleCase(
            "url.duplicate-query-item",
            fires: .request(F.sumUpLaunch() + "&amount=1.00", app: "1.88.0"),
            quiet: .request(F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "square.url.data-recovered",
            fires: .callback(F.squareCallback(F.squareOK, joiner: "?"), provider: nil, request: F.squareLaunch()),
            quiet: .callback(F.squareCallback(F.squareOK), provider: nil, request: F.squareLaunch())),
        RuleCase(
            "square.url.data-null-value",
            fires: .request(F.squareLaunch("1.3", ["notes": NSNull()])),
            quiet: .request(F.squareLaunch("1.3", ["notes": "null"]))),
        RuleCase(
            "square.url.data-duplicate-key",
            fires: .request(F.squareLaunch("1.3", prefixingJSON: #""state":"ref-0","#)),
            quiet: .request(F.squareLaunch("1.3", prefixingJSON: #""sdk_version":"3.5.0","#))),
        RuleCase(
            "request.app-version-unreadable",
            fires: .request(F.sumUpLaunch(), app: "v1.69"),
            quiet: .request(F.sumUpLaunch(), app: "1.69")),
        RuleCase(
            "callback.conflicting-outcome",
            fires: .callback(
                F.iZettleCallback(success: true, [("errorCode", "CancelledByUser"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch()),
            quiet: .callback(
                F.iZettleCallback(success: false, [("errorCode", "CancelledByUser"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch())),
        RuleCase(
            "callback.invalid-routing-payment-id",
            fires: .callback(
                "myshop://paylog/callback?paylog_payment=pay%2001&paylog_outcome=success&smp-status=success",
                provider: .sumup),
            quiet: .callback(
                "myshop://paylog/callback?paylog_payment=pay_01&paylog_outcome=success&smp-status=success",
                provider: .sumup)),
        RuleCase(
            "callback.provider-mismatch",
            fires: .callback(F.sumUpCallback(F.sumUpSuccessItems), provider: .sumup, request: F.squareLaunch()),
            quiet: .callback(
                F.sumUpCallback(F.sumUpSuccessItems), provider: .sumup, request: F.sumUpLaunch(), app: "1.88.0")),
    ]

    static let squareRequest: [RuleCase] = [
        RuleCase(
            "square.request.legacy-pre-1.0", fires: .request(F.squareLaunch(nil)), quiet: .request(F.squareLaunch())),
        RuleCase(
            "square.request.version-unknown",
            fires: .request(F.squareLaunch("1.4")), quiet: .request(F.squareLaunch("1.3"))),
        RuleCase(
            "square.request.required-key-missing",
            fires: .request(F.squareLaunch("1.0", ["options": nil])),
            quiet: .request(F.squareLaunch(nil, ["options": nil]))),
        RuleCase(
            "square.request.key-not-in-version",
            fires: .request(F.squareLaunch("1.0", ["location_id": "L8XK2"])),
            quiet: .request(F.squareLaunch("1.3", ["location_id": "L8XK2"]))),
        RuleCase(
            "square.request.unknown-key",
            fires: .request(F.squareLaunch("1.3", ["title": "Two coffees"])),
            quiet: .request(F.squareLaunch("1.3", ["notes": "Two coffees"]))),
        RuleCase(
            "square.request.app-below-api-minimum",
            fires: .request(F.squareLaunch("1.3"), app: "4.53"),
            quiet: .request(F.squareLaunch("1.3"), app: "4.59")),
        RuleCase(
            "square.request.tender-type-not-in-version",
            fires: .request(
                F.squareLaunch("1.1", ["options.supported_tender_types": ["CREDIT_CARD", "CARD_ON_FILE"]])),
            quiet: .request(F.squareLaunch("1.2", ["options.supported_tender_types": ["CREDIT_CARD", "CARD_ON_FILE"]]))
        ),
        RuleCase(
            "square.request.tender-types-empty",
            fires: .request(F.squareLaunch("1.3", ["options.supported_tender_types": [String]()])),
            quiet: .request(F.squareLaunch("1.3", ["options.supported_tender_types": ["CREDIT_CARD"]]))),
        RuleCase(
            "square.request.tender-types-not-array",
            fires: .request(F.squareLaunch("1.3", ["options.supported_tender_types": "CREDIT_CARD"])),
            quiet: .request(F.squareLaunch("1.3", ["options.supported_tender_types": ["CREDIT_CARD"]]))),
        RuleCase(
            "square.request.version-not-string",
            fires: .request(F.squareLaunch("1.3", ["version": 1.3])),
            quiet: .request(F.squareLaunch("1.3"))),
        RuleCase(
            "square.request.option-not-boolean",
            fires: .request(F.squareLaunch("1.3", ["options.clear_default_fees": "true"])),
            quiet: .request(F.squareLaunch("1.3", ["options.clear_default_fees": true]))),
        RuleCase(
            "square.request.amount-as-string",
            fires: .request(F.squareLaunch("1.3", ["amount_money.amount": "500"])),
            quiet: .request(F.squareLaunch("1.3", ["amount_money.amount": 500]))),
        RuleCase(
            "square.request.amount-not-integer-literal",
            fires: .request(F.squareLaunch("1.3", amountLiteral: "1250.0")),
            quiet: .request(F.squareLaunch("1.3", amountLiteral: "1250"))),
        RuleCase(
            "square.request.amount-not-integer",
            fires: .request(F.squareLaunch("1.3", ["amount_money.amount": 12.5])),
            quiet: .request(F.squareLaunch("1.3", ["amount_money.amount": 1250]))),
        RuleCase(
            "square.request.amount-out-of-range",
            fires: .request(F.squareLaunch("1.3", amountLiteral: "9223372036854775808")),
            quiet: .request(F.squareLaunch("1.3", amountLiteral: "9223372036854775807"))),
        RuleCase(
            "square.request.amount-out-of-range",
            fires: .request(F.squareLaunch("1.3", amountLiteral: "1e30")),
            quiet: .request(F.squareLaunch("1.3", amountLiteral: "1e3"))),
        RuleCase(
            "square.request.amount-not-positive",
            fires: .request(F.squareLaunch("1.3", ["amount_money.amount": 0])),
            quiet: .request(F.squareLaunch("1.3", ["amount_money.amount": 1]))),
        RuleCase(
            "square.request.currency-code-malformed",
            fires: .request(F.squareLaunch("1.3", ["amount_money.currency_code": "usd"])),
            quiet: .request(F.squareLaunch("1.3", ["amount_money.currency_code": "USD"]))),
        RuleCase(
            "square.request.skip-receipt-gating",
            fires: .request(F.squareLaunch("1.1", ["options.skip_receipt": true])),
            quiet: .request(F.squareLaunch("1.2", ["options.skip_receipt": true]))),
        RuleCase(
            "square.request.disable-cnp-gating",
            fires: .request(F.squareLaunch("1.2", ["options.disable_cnp": true])),
            quiet: .request(F.squareLaunch("1.3", ["options.disable_cnp": true]))),
        RuleCase(
            "square.request.notes-too-long",
            fires: .request(F.squareLaunch("1.3", ["notes": String(repeating: "n", count: 501)])),
            quiet: .request(F.squareLaunch("1.3", ["notes": String(repeating: "n", count: 500)]))),
        RuleCase(
            "square.request.sdk-version",
            fires: .request(F.squareLaunch("1.3", ["sdk_version": "3.5.0"])),
            quiet: .request(F.squareLaunch("1.3"))),
        RuleCase(
            "square.request.sdk-callback-marker",
            fires: .request(F.squareLaunch("1.3", ["callback_url": "my-app://perform-callback/square_request"])),
            quiet: .request(F.squareLaunch("1.3", ["callback_url": "my-app://perform-callback"]))),
    ]

    static func squareCallback(_ changes: [String: Any?], base: [String: Any] = F.squareOK) -> String {
        F.squareCallback(F.setting(changes, in: base))
    }

    static let squareCallback: [RuleCase] = [
        RuleCase(
            "square.callback.status-invalid",
            fires: .callback(squareCallback(["status": "cancelled"]), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback([:]), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.client-transaction-id-missing",
            fires: .callback(
                squareCallback(["client_transaction_id": nil]), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback([:]), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.error-code-missing",
            fires: .callback(
                squareCallback(["error_code": nil], base: F.squareError), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback([:], base: F.squareError), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.id-empty",
            fires: .callback(squareCallback(["transaction_id": ""]), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback([:]), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.key-not-for-status",
            fires: .callback(
                squareCallback(["transaction_id": "xR8pLq"], base: F.squareError), provider: .square,
                request: F.squareLaunch()),
            quiet: .callback(squareCallback([:], base: F.squareError), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.error-code-on-ok",
            fires: .callback(
                squareCallback(["error_code": "payment_canceled"]), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback(["error_code": "0"]), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.error-code-unknown",
            fires: .callback(
                squareCallback(["error_code": "some_future_code"], base: F.squareError), provider: .square,
                request: F.squareLaunch()),
            quiet: .callback(squareCallback([:], base: F.squareError), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.error-code-not-in-version",
            fires: .callback(
                squareCallback(["error_code": "user_id_mismatch"], base: F.squareError), provider: .square,
                request: F.squareLaunch("1.3")),
            quiet: .callback(
                squareCallback(["error_code": "user_id_mismatch"], base: F.squareError), provider: .square,
                request: F.squareLaunch("1.2"))),
        RuleCase(
            "square.callback.error-code-deprecated",
            fires: .callback(
                squareCallback(["error_code": "client_not_authorized_for_user"], base: F.squareError),
                provider: .square, request: F.squareLaunch("1.2")),
            quiet: .callback(
                squareCallback(["error_code": "client_not_authorized_for_user"], base: F.squareError),
                provider: .square, request: F.squareLaunch("1.1"))),
        RuleCase(
            "square.callback.error-code-removed",
            fires: .callback(
                squareCallback(["error_code": "login_code_invalid"], base: F.squareError), provider: .square,
                request: F.squareLaunch(nil)),
            quiet: .callback(
                squareCallback(["error_code": "not_logged_in"], base: F.squareError), provider: .square,
                request: F.squareLaunch(nil))),
        RuleCase(
            "square.callback.state-mismatch",
            fires: .callback(squareCallback(["state": "ref-2"]), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback(["state": "ref-1"]), provider: .square, request: F.squareLaunch())),
        RuleCase(
            "square.callback.state-unsolicited",
            fires: .callback(squareCallback([:]), provider: .square, request: F.squareLaunch("1.3", ["state": nil])),
            quiet: .callback(
                squareCallback(["state": nil]), provider: .square, request: F.squareLaunch("1.3", ["state": nil]))),
        RuleCase(
            "square.callback.legacy-ids-after-1.0",
            fires: .callback(
                squareCallback(["payment_id": "P-77"]), provider: .square, request: F.squareLaunch("1.0")),
            quiet: .callback(squareCallback(["payment_id": "P-77"]), provider: .square, request: F.squareLaunch(nil))
        ),
        RuleCase(
            "square.callback.legacy-ids",
            fires: .callback(squareCallback(["payment_id": "P-77"]), provider: .square, request: F.squareLaunch(nil)),
            quiet: .callback(squareCallback(["payment_id": "P-77"]), provider: .square, request: F.squareLaunch("1.0"))
        ),
        RuleCase(
            "square.callback.offline",
            fires: .callback(squareCallback(["transaction_id": nil]), provider: .square, request: F.squareLaunch()),
            quiet: .callback(squareCallback([:]), provider: .square, request: F.squareLaunch())),
    ]

    static let sumUpRequest: [RuleCase] = [
        RuleCase(
            "sumup.request.app-version-unknown",
            fires: .request(F.sumUpLaunch()), quiet: .request(F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.request.required-key-missing",
            fires: .request(F.sumUpLaunch([("affiliate-key", nil)]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.request.amount-not-decimal",
            fires: .request(F.sumUpLaunch([("amount", "1.2.3")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("amount", "1.23")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.amount-format",
            fires: .request(F.sumUpLaunch([("amount", "12,50")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("amount", "12.50")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.amount-not-positive",
            fires: .request(F.sumUpLaunch([("amount", "0.00")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("amount", "0.01")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.currency-code-malformed",
            fires: .request(F.sumUpLaunch([("currency", "eur")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("currency", "EUR")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.foreign-tx-id-too-long",
            fires: .request(F.sumUpLaunch([("foreign-tx-id", String(repeating: "x", count: 129))]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("foreign-tx-id", String(repeating: "x", count: 128))]), app: "1.88.0")),
        RuleCase(
            "sumup.request.foreign-tx-id-not-printable",
            fires: .request(F.sumUpLaunch([("foreign-tx-id", "réf-1")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("foreign-tx-id", "ref-1")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.foreign-tx-id-space",
            fires: .request(F.sumUpLaunch([("foreign-tx-id", "order 1")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("foreign-tx-id", "order-1")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.foreign-tx-id-app-too-old",
            fires: .request(F.sumUpLaunch(), app: "1.52"), quiet: .request(F.sumUpLaunch(), app: "1.53")),
        RuleCase(
            "sumup.request.skip-screen-success-value",
            fires: .request(F.sumUpLaunch([("skip-screen-success", "false")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("skip-screen-success", "true")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.skip-screen-success-app-too-old",
            fires: .request(F.sumUpLaunch([("skip-screen-success", "true")]), app: "1.68.9"),
            quiet: .request(F.sumUpLaunch([("skip-screen-success", "true")]), app: "1.69")),
        RuleCase(
            "sumup.request.total-app-too-old",
            fires: .request(F.sumUpLaunch([("total", "12.50")]), app: "1.87"),
            quiet: .request(F.sumUpLaunch([("total", "12.50")]), app: "1.88.0")),
        RuleCase(
            "sumup.request.total-platform",
            fires: .request(F.sumUpLaunch([("total", "12.50")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.request.personal-data",
            fires: .request(F.sumUpLaunch([("receipt-email", "ana@example.com")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.request.unknown-key",
            fires: .request(F.sumUpLaunch([("tip", "1.00")]), app: "1.88.0"),
            quiet: .request(F.sumUpLaunch([("title", "Tip included")]), app: "1.88.0")),
    ]

    static func sumUpCallback(_ changes: [(String, String?)], success: Bool = true) -> String {
        F.sumUpCallback(success: success, F.applying(changes, to: F.sumUpSuccessItems))
    }

    static let sumUpCallback: [RuleCase] = [
        RuleCase(
            "sumup.callback.app-version-unknown",
            fires: .callback(sumUpCallback([]), provider: .sumup, request: F.sumUpLaunch()),
            quiet: .callback(sumUpCallback([]), provider: .sumup, request: F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.callback.status-missing",
            fires: .callback(
                sumUpCallback([("smp-status", nil)]), provider: .sumup, request: F.sumUpLaunch(), app: "1.88.0"),
            quiet: .callback(sumUpCallback([]), provider: .sumup, request: F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.callback.status-contradicts-url",
            // smp-status success, but opened on the failure URL (paylog_outcome=failure).
            fires: .callback(
                sumUpCallback([], success: false), provider: .sumup, request: F.sumUpLaunch(), app: "1.88.0"),
            quiet: .callback(sumUpCallback([]), provider: .sumup, request: F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.callback.status-invalid",
            fires: .callback(
                sumUpCallback([("smp-status", "pending")], success: false), provider: .sumup,
                request: F.sumUpLaunch(), app: "1.88.0"),
            quiet: .callback(
                sumUpCallback([("smp-status", "failed"), ("smp-tx-code", nil)], success: false), provider: .sumup,
                request: F.sumUpLaunch(), app: "1.88.0")),
        RuleCase(
            "sumup.callback.tx-code-impossible",
            fires: .callback(
                sumUpCallback([("foreign-tx-id", nil)]), provider: .sumup,
                request: F.sumUpLaunch([("foreign-tx-id", nil)]), app: "1.50"),
            quiet: .callback(
                sumUpCallback([("foreign-tx-id", nil)]), provider: .sumup,
                request: F.sumUpLaunch([("foreign-tx-id", nil)]), app: "1.53")),
        RuleCase(
            "sumup.callback.tx-code-missing",
            fires: .callback(
                sumUpCallback([("smp-tx-code", nil)]), provider: .sumup, request: F.sumUpLaunch(), app: "1.60"),
            quiet: .callback(
                sumUpCallback([("smp-tx-code", nil), ("foreign-tx-id", nil)]), provider: .sumup,
                request: F.sumUpLaunch([("foreign-tx-id", nil)]), app: "1.50")),
        RuleCase(
            "sumup.callback.foreign-tx-id-app-too-old",
            fires: .callback(sumUpCallback([]), provider: .sumup, request: F.sumUpLaunch(), app: "1.53.1"),
            quiet: .callback(sumUpCallback([]), provider: .sumup, request: F.sumUpLaunch(), app: "1.53.2")),
        RuleCase(
            "sumup.callback.foreign-tx-id-mismatch",
            fires: .callback(
                sumUpCallback([("foreign-tx-id", "ref-2")]), provider: .sumup, request: F.sumUpLaunch(),
                app: "1.88.0"),
            quiet: .callback(
                sumUpCallback([("foreign-tx-id", "ref-1")]), provider: .sumup, request: F.sumUpLaunch(),
                app: "1.88.0")),
        RuleCase(
            "sumup.callback.foreign-tx-id-missing",
            fires: .callback(
                sumUpCallback([("foreign-tx-id", nil)]), provider: .sumup, request: F.sumUpLaunch(), app: "1.60"),
            quiet: .callback(
                sumUpCallback([("foreign-tx-id", nil)]), provider: .sumup, request: F.sumUpLaunch(), app: "1.53.1")),
    ]

    static let iZettle: [RuleCase] = [
        RuleCase(
            "izettle.request.v3-deprecated",
            fires: .request(F.iZettleV3Launch()), quiet: .request(F.iZettleLaunch())),
        RuleCase(
            "izettle.request.required-key-missing",
            fires: .request(F.iZettleLaunch([("title", nil)])), quiet: .request(F.iZettleLaunch())),
        RuleCase(
            "izettle.request.price-not-integer",
            fires: .request(F.iZettleLaunch([("price", "12.50")])),
            quiet: .request(F.iZettleLaunch([("price", "12")]))),
        RuleCase(
            "izettle.request.price-not-positive",
            fires: .request(F.iZettleLaunch([("price", "0")])), quiet: .request(F.iZettleLaunch([("price", "1")]))),
        RuleCase(
            "izettle.request.currency-not-iso",
            fires: .request(F.iZettleLaunch([("currency", "sek")])), quiet: .request(F.iZettleLaunch([("currency", "SEK")]))),
        RuleCase(
            "izettle.request.reference-too-long",
            fires: .request(F.iZettleLaunch([("reference", String(repeating: "r", count: 129))])),
            quiet: .request(F.iZettleLaunch([("reference", String(repeating: "r", count: 128))]))),
        RuleCase(
            "izettle.request.v3-amount-format",
            fires: .request(F.iZettleV3Launch([("amount", "12,50")])),
            quiet: .request(F.iZettleV3Launch([("amount", "12.50")]))),
        RuleCase(
            "izettle.request.v3-reference-too-long",
            fires: .request(F.iZettleV3Launch([("reference", String(repeating: "r", count: 129))])),
            quiet: .request(F.iZettleV3Launch([("reference", String(repeating: "r", count: 128))]))),
        RuleCase(
            "izettle.request.unknown-key",
            fires: .request(F.iZettleLaunch([("x-cancel", "myshop://cancel")])),
            quiet: .request(F.iZettleLaunch([("image", "iVBORw0KGgo")]))),
        RuleCase(
            "izettle.callback.status-undetermined",
            fires: .callback("myshop://paylog/done?reference=ref-1", provider: .izettle, request: F.iZettleLaunch()),
            quiet: .callback(
                F.iZettleCallback([("reference", "ref-1")]), provider: .izettle, request: F.iZettleLaunch())
        ),
        RuleCase(
            "izettle.callback.error-code-unknown",
            fires: .callback(
                F.iZettleCallback(success: false, [("errorCode", "Declined"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch()),
            quiet: .callback(
                F.iZettleCallback(success: false, [("errorCode", "CancelledByUser"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch())),
        RuleCase(
            "izettle.callback.error-parameter-name",
            fires: .callback(
                F.iZettleCallback(success: false, [("error", "CancelledByUser"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch()),
            quiet: .callback(
                F.iZettleCallback(success: false, [("errorCode", "CancelledByUser"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch())),
        RuleCase(
            "izettle.callback.reference-mismatch",
            fires: .callback(
                F.iZettleCallback([("reference", "ref-2")]), provider: .izettle, request: F.iZettleLaunch()),
            quiet: .callback(
                F.iZettleCallback([("reference", "ref-1")]), provider: .izettle, request: F.iZettleLaunch())),
    ]
}
