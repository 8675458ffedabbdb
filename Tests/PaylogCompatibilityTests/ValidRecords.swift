import PaylogDomain

/// Fully valid requests and callbacks per provider and version: they may carry info findings only.
enum ValidRecords {
    static let all: [ValidRecord] = square + sumUp + iZettle

    static let square: [ValidRecord] = {
        var records: [ValidRecord] = []
        let tenders: [String?: [String]] = [
            nil: ["CREDIT_CARD"], "1.0": ["CREDIT_CARD"], "1.1": ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD"],
            "1.2": ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE"],
            "1.3": ["CREDIT_CARD", "CASH", "OTHER", "SQUARE_GIFT_CARD", "CARD_ON_FILE", "PAYPAY"],
        ]
        let apps: [String?: String] = [nil: "4.20", "1.0": "4.34", "1.1": "4.50", "1.2": "4.53", "1.3": "4.59"]
        for version in [nil, "1.0", "1.1", "1.2", "1.3"] as [String?] {
            var changes: [String: Any?] = ["options.supported_tender_types": tenders[version]!, "notes": "Table 4"]
            if version == "1.3" {
                changes["location_id"] = "L8XK2"
                changes["customer_id"] = "CUST-9"
                changes["options.skip_receipt"] = true
                changes["options.disable_cnp"] = true
            } else {
                changes["merchant_id"] = "M1"
                if version == "1.2" { changes["customer_id"] = "CUST-9" }
            }
            let request = F.squareLaunch(version, changes)
            let name = "Square \(version ?? "pre-1.0")"
            let app = apps[version]!
            records.append(ValidRecord(name: "\(name) request", subject: .request(request, app: app)))
            records.append(
                ValidRecord(
                    name: "\(name) ok callback",
                    subject: .callback(F.squareCallback(F.squareOK), provider: nil, request: request, app: app)))
            records.append(
                ValidRecord(
                    name: "\(name) offline ok callback",
                    subject: .callback(
                        F.squareCallback(F.setting(["transaction_id": nil], in: F.squareOK)), provider: nil,
                        request: request, app: app)))
            records.append(
                ValidRecord(
                    name: "\(name) error callback",
                    subject: .callback(F.squareCallback(F.squareError), provider: nil, request: request, app: app)))
        }
        let legacy = F.squareLaunch(nil)
        records.append(
            ValidRecord(
                name: "Square pre-1.0 legacy-id callback",
                subject: .callback(
                    F.squareCallback([
                        "status": "ok", "payment_id": "P-77", "offline_payment_id": "O-1", "state": "ref-1",
                    ]),
                    provider: .square, request: legacy)))
        records.append(
            ValidRecord(
                name: "Square 1.3 location_id_mismatch",
                subject: .callback(
                    F.squareCallback(F.setting(["error_code": "location_id_mismatch"], in: F.squareError)),
                    provider: .square, request: F.squareLaunch("1.3"))))
        return records
    }()

    static let sumUp: [ValidRecord] = [
        ValidRecord(
            name: "SumUp 1.52 request without foreign-tx-id",
            subject: .request(F.sumUpLaunch([("foreign-tx-id", nil)]), app: "1.52")),
        ValidRecord(
            name: "SumUp 1.52 success callback (no code, no echo)",
            subject: .callback(
                F.sumUpCallback([("smp-status", "success")]), provider: nil,
                request: F.sumUpLaunch([("foreign-tx-id", nil)]), app: "1.52")),
        ValidRecord(name: "SumUp 1.53 request", subject: .request(F.sumUpLaunch(), app: "1.53")),
        ValidRecord(
            name: "SumUp 1.53 success callback (code, no echo yet)",
            subject: .callback(
                F.sumUpCallback([("smp-status", "success"), ("smp-tx-code", "TEENSK4W2K")]), provider: nil,
                request: F.sumUpLaunch(), app: "1.53")),
        ValidRecord(
            name: "SumUp 1.69 request with skip-screen-success",
            subject: .request(F.sumUpLaunch([("skip-screen-success", "true")]), app: "1.69")),
        ValidRecord(
            name: "SumUp 1.88.0 request with total and receipt prefill",
            subject: .request(
                F.sumUpLaunch([("total", "12.50"), ("receipt-email", "ana@example.com")]), app: "1.88.0")),
        ValidRecord(
            name: "SumUp 1.88.0 success callback",
            subject: .callback(
                F.sumUpCallback(F.sumUpSuccessItems), provider: nil, request: F.sumUpLaunch(), app: "1.88.0")),
        ValidRecord(
            name: "SumUp 1.88.0 failed callback",
            subject: .callback(
                F.sumUpCallback(
                    success: false,
                    [
                        ("smp-status", "failed"), ("smp-failure-cause", "CANCELLED"), ("foreign-tx-id", "ref-1"),
                        ("smp-message", "Payment cancelled"),
                    ]),
                provider: nil, request: F.sumUpLaunch(), app: "1.88.0")),
        ValidRecord(
            name: "SumUp 1.88.0 invalidstate callback",
            subject: .callback(
                F.sumUpCallback(success: false, [("smp-status", "invalidstate"), ("foreign-tx-id", "ref-1")]),
                provider: nil, request: F.sumUpLaunch(), app: "1.88.0")),
    ]

    static let iZettle: [ValidRecord] = [
        ValidRecord(name: "iZettle 1.0 request", subject: .request(F.iZettleLaunch())),
        ValidRecord(
            name: "iZettle 1.0 request without reference",
            subject: .request(F.iZettleLaunch([("reference", nil), ("image", "iVBORw0KGgo")]))),
        ValidRecord(
            name: "iZettle 1.0 success callback",
            subject: .callback(
                F.iZettleCallback([("reference", "ref-1")]), provider: .izettle, request: F.iZettleLaunch())),
        ValidRecord(
            name: "iZettle 1.0 failure callback",
            subject: .callback(
                F.iZettleCallback(success: false, [("errorCode", "InvalidCurrency"), ("reference", "ref-1")]),
                provider: .izettle, request: F.iZettleLaunch())),
        ValidRecord(name: "iZettle 3.0 request", subject: .request(F.iZettleV3Launch())),
        ValidRecord(
            name: "iZettle 3.0 failure callback",
            subject: .callback(
                F.iZettleCallback(
                    success: false, [("errorMessage", "com.izettle.payment(3) - Cancelled by user")]),
                provider: .izettle, request: F.iZettleV3Launch())),
    ]
}
