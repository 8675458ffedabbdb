import TestSupport
import Foundation
import Testing

@Suite("paylog executable, end to end")
struct IngestEndToEndTests {
    static func squareData(_ json: String) -> String {
        json.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// A mixed day: good lines for all three providers, and bad lines of every kind of unreadable input.
    static func mixedFile() -> String {
        let squareRequest = "square-commerce-v1://payment/create?data=" + squareData(
            #"{"amount_money":{"amount":500,"currency_code":"USD"},"callback_url":"myshop://cb","client_id":"sq0idp-1","version":"1.3","state":"st-sq1","options":{"supported_tender_types":["CREDIT_CARD"]}}"#)
        let squareOffline = "myshop://cb?data=" + squareData(#"{"status":"ok","client_transaction_id":"CTX-1","state":"st-sq1"}"#)
        let sumupRequest = "sumupmerchant://pay/1.0?amount=12.50&currency=EUR&affiliate-key=AK&title=T&foreign-tx-id=ref-su1&callbacksuccess=myshop%3A%2F%2Fok&callbackfail=myshop%3A%2F%2Ffail"
        let sumupSuccess = "myshop://ok?smp-status=success&smp-tx-code=TXSU1&foreign-tx-id=ref-su1"
        let izRequest = "izettle://x-callback-url/payment/1.0?x-source=shop&x-success=myshop%3A%2F%2Fiz-ok&x-failure=myshop%3A%2F%2Fiz-fail&api-key=K&price=20&currency=SEK&title=T&reference=ref-iz1"
        let izFailure = "myshop://iz-fail?reference=ref-iz1&errorCode=CancelledByUser"
        return [
            #"{"kind":"request","payment":"sq-1","at":"2026-11-21T09:00:00Z","url":"\#(squareRequest)"}"#,
            #"{"kind":"app_switch","payment":"sq-1","at":"2026-11-21T09:00:02Z"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:00:30Z","url":"\#(squareOffline)"}"#,
            #"{"kind":"request","payment":"su-1","at":"2026-11-21T09:01:00Z","url":"\#(sumupRequest)","app_version":"1.88.0"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:30Z","url":"\#(sumupSuccess)"}"#,
            #"{"kind":"callback","at":"2026-11-21T09:01:31Z","url":"\#(sumupSuccess)"}"#,
            #"{"kind":"request","payment":"iz-1","at":"2026-11-21T09:02:00Z","url":"\#(izRequest)"}"#,
            #"{"kind":"callback","payment":"iz-1","at":"2026-11-21T09:02:30Z","url":"\#(izFailure)"}"#,
            #"{"kind":"reconcile","at":"2026-11-22T08:00:00Z","provider":"square","transaction_id":"SQ-9","client_transaction_id":"CTX-1","amount_minor":500,"currency":"USD"}"#,
            "this is not json",                                                                  // line 10
            #"{"kind":"refund","payment":"sq-1","at":"2026-11-21T09:00:00Z"}"#,                   // line 11
            #"{"kind":"app_switch","payment":"nobody","at":"2026-11-21T09:00:00Z"}"#,             // line 12
            #"{"kind":"request","payment":"x-1","at":"2026-11-21T09:00:00Z","url":"ftp://nope"}"#, // line 13
            #"{"kind":"fail","payment":"su-1","at":"yesterday","reason":"r"}"#,                  // line 14
            "",
        ].joined(separator: "\n")
    }

    @Test("ingest records good lines, reports bad ones by number and reason, exits 2; a second ingest appends nothing")
    func ingestMixedFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.path + "/day.jsonl"
        try Self.mixedFile().write(toFile: file, atomically: true, encoding: .utf8)
        let store = ["--store", dir.path + "/store"]

        let first = try PaylogProcess.run(["ingest", file, "--json"] + store)
        #expect(first.status == 2, "exit status is non-zero when lines were rejected: \(first.stderr)")
        let report = try PaylogProcess.jsonObject(first.stdout)
        #expect(report["lines"] as? Int == 14)
        #expect(report["accepted"] as? Int == 9)
        #expect(report["rejected"] as? Int == 5)
        // sq-1: Requested, AppSwitched, CallbackReceived, Offline, Reconciled; su-1: Requested, CallbackReceived
        // and the same callback delivered again a second later (recorded as a redelivery); iz-1: Requested,
        // CallbackReceived, Failed.
        #expect(report["events_appended"] as? Int == 11)
        let errors = (report["errors"] as? [[String: Any]]) ?? []
        #expect(errors.compactMap { $0["line"] as? Int } == [10, 11, 12, 13, 14])
        let messages = errors.compactMap { $0["message"] as? String }
        #expect(messages.count == 5)
        if messages.count == 5 {
            #expect(messages[0].contains("not valid JSON"))
            #expect(messages[1].contains("unknown kind \"refund\""))
            #expect(messages[2].contains("No payment nobody"))
            #expect(messages[3].lowercased().contains("ftp"))
            #expect(messages[4].contains("\"at\""))
        }

        let again = try PaylogProcess.run(["ingest", file, "--json"] + store)
        #expect(try PaylogProcess.jsonObject(again.stdout)["events_appended"] as? Int == 0)

        let sq = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", "sq-1", "--json"] + store).stdout)
        #expect(sq["status"] as? String == "reconciled")
        #expect(sq["client_transaction_id"] as? String == "CTX-1")
        #expect(sq["transaction_id"] as? String == "SQ-9")
        #expect(sq["amount_minor"] as? Int == 500 && sq["currency"] as? String == "USD")
        #expect(sq["version"] as? Int == 5)
        let su = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", "su-1", "--json"] + store).stdout)
        #expect(su["status"] as? String == "completed")
        #expect(su["transaction_id"] as? String == "TXSU1")
        #expect(su["callbacks"] as? Int == 1)
        let iz = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", "iz-1", "--json"] + store).stdout)
        #expect(iz["status"] as? String == "failed")
        #expect(iz["error_code"] as? String == "CancelledByUser")

        let list = try PaylogProcess.run(["status", "--status", "failed", "--json"] + store)
        #expect(list.stdout.split(separator: "\n").count == 1)
        let missing = try PaylogProcess.run(["status", "nobody"] + store)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("No payment nobody"))
        let verify = try PaylogProcess.run(["verify", "--json"] + store)
        #expect(try PaylogProcess.jsonObject(verify.stdout)["chain_ok"] as? Bool == true)
    }

    @Test("ingest reads standard input")
    func ingestStdin() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let result = try PaylogProcess.run(["ingest", "-", "--json", "--store", dir.path], stdin: Self.mixedFile())
        #expect(try PaylogProcess.jsonObject(result.stdout)["accepted"] as? Int == 9)
    }

    @Test("request builds a routable URL, and refuses one that breaks the contract")
    func requestCommand() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        let built = try PaylogProcess.run([
            "request", "--payment", "p-7", "--provider", "sumup", "--amount", "9.99", "--currency", "EUR",
            "--callback", "myshop://cb", "--client-id", "AK", "--app-version", "1.88.0", "--reference", "ref-7", "--json",
        ] + store)
        #expect(built.status == 0, "\(built.stderr)")
        let object = try PaylogProcess.jsonObject(built.stdout)
        let url = try #require(object["launch_url"] as? String)
        #expect(url.hasPrefix("sumupmerchant://pay/1.0?"))
        #expect(url.contains("foreign-tx-id=ref-7"))
        #expect(object["status"] as? String == "requested")
        // Route the success callback back by its foreign-tx-id echo alone.
        let callback = try PaylogProcess.run(
            ["callback", "--url", "myshop://cb?smp-status=success&smp-tx-code=T7&foreign-tx-id=ref-7", "--json"] + store)
        #expect(try PaylogProcess.jsonObject(callback.stdout)["status"] as? String == "completed")

        let refused = try PaylogProcess.run([
            "request", "--payment", "p-8", "--provider", "sumup", "--amount", "1.00", "--currency", "EUR",
            "--callback", "myshop://cb", "--client-id", "AK", "--app-version", "1.60.0", "--skip-screen-success",
        ] + store)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("skip-screen-success"))
        let status = try PaylogProcess.run(["status", "p-8"] + store)
        #expect(status.status == 1, "a refused request records nothing")
    }

    @Test("fail, a late success, and expire through the CLI")
    func failLateAndExpire() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let store = ["--store", dir.path]
        _ = try PaylogProcess.run(["ingest", "-"] + store, stdin: Self.mixedFile())
        // sq-1 was reconciled; iz-1 failed. Fail a fresh SumUp payment by timeout, then a late success arrives.
        _ = try PaylogProcess.run([
            "request", "--payment", "late-1", "--provider", "sumup", "--amount", "5.00", "--currency", "EUR",
            "--callback", "myshop://cb", "--client-id", "AK", "--app-version", "1.88.0", "--reference", "ref-late",
        ] + store)
        let failed = try PaylogProcess.run(["fail", "late-1", "--reason", "no callback in 120 s", "--json"] + store)
        #expect(try PaylogProcess.jsonObject(failed.stdout)["status"] as? String == "failed")
        let late = try PaylogProcess.run(
            ["callback", "--url", "myshop://cb?smp-status=success&smp-tx-code=TL&foreign-tx-id=ref-late", "--json"] + store)
        let lateObject = try PaylogProcess.jsonObject(late.stdout)
        #expect(lateObject["status"] as? String == "completed")
        #expect((lateObject["flags"] as? [String])?.contains("late_callback") == true)
        let refuse = try PaylogProcess.run(["fail", "late-1", "--reason", "again"] + store)
        #expect(refuse.status == 1 && refuse.stderr.contains("cannot be failed"))

        // An offline Square payment past its 24 h window expires.
        let offlineURL = "myshop://cb?data=" + Self.squareData(#"{"status":"ok","client_transaction_id":"CTX-OFF","state":"st-off"}"#)
        let request = "square-commerce-v1://payment/create?data=" + Self.squareData(
            #"{"amount_money":{"amount":700,"currency_code":"USD"},"callback_url":"myshop://cb","client_id":"c","version":"1.3","state":"st-off","options":{"supported_tender_types":["CREDIT_CARD"]}}"#)
        _ = try PaylogProcess.run(["ingest", "-"] + store, stdin: [
            #"{"kind":"request","payment":"off-1","at":"2026-11-21T10:00:00Z","url":"\#(request)"}"#,
            #"{"kind":"callback","at":"2026-11-21T10:00:30Z","url":"\#(offlineURL)"}"#,
        ].joined(separator: "\n"))
        let early = try PaylogProcess.run(["expire", "--now", "2026-11-22T10:00:00Z", "--json"] + store)
        #expect((try PaylogProcess.jsonObject(early.stdout)["expired"] as? [String]) == [])
        let expired = try PaylogProcess.run(["expire", "--now", "2026-11-22T10:00:31Z", "--json"] + store)
        #expect((try PaylogProcess.jsonObject(expired.stdout)["expired"] as? [String]) == ["off-1"])
        let off = try PaylogProcess.jsonObject(try PaylogProcess.run(["status", "off-1", "--json"] + store).stdout)
        #expect(off["status"] as? String == "failed")
    }
}
