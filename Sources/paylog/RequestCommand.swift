import ArgumentParser
import Foundation
import PaylogDomain
import PaylogPresentation
import PaylogProviders
import PaylogWorkflow

/// `paylog request`: builds a provider launch URL for a payment and records `Requested`.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Build the launch URL for a payment, record Requested, and print the URL.",
        discussion: "Refuses to build a URL that breaks the provider's contract (e.g. --skip-screen-success below SumUp 1.69).")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "The payment id (1–128 printable ASCII characters).") var payment: String
    @Option(help: "square, sumup or izettle.") var provider: String
    // `.unconditional`: `--amount -1` is a (refused) amount, not a missing value followed by an option `-1`.
    @Option(parsing: .unconditional, help: "The amount as a decimal, e.g. 12.50.") var amount: String
    @Option(help: "ISO 4217 currency code.") var currency: String
    @Option(help: "Your app's callback URL; paylog adds its routing marker.") var callback: String
    @Option(help: "Square client_id, SumUp affiliate-key or iZettle api-key.") var clientId: String
    @Option(help: "The routing reference (Square state, SumUp foreign-tx-id, iZettle reference); minted when omitted.")
    var reference: String?
    @Option(help: "Square API version (1.0–1.3).") var apiVersion: String = "1.3"
    @Option(help: "The provider app version installed (SumUp rules depend on it).") var appVersion: String?
    @Option(help: "Title shown in the provider's app.") var title: String?
    @Option(help: "Square notes.") var notes: String?
    @Option(help: "Square location_id (API 1.3).") var locationId: String?
    @Flag(help: "SumUp skip-screen-success (app 1.69+).") var skipScreenSuccess = false
    @OptionGroup var observed: ObservedAt

    func run() async throws {
        guard let providerValue = Provider(rawValue: provider.lowercased()) else {
            throw ValidationError("--provider must be square, sumup or izettle.")
        }
        let money: Money
        let id: PaymentID
        do {
            money = try Money(decimalString: amount, currency: try CurrencyCode(currency))
            id = try PaymentID(payment)
        } catch { throw ValidationError("\(error)") }
        let spec = LaunchSpec(
            provider: providerValue, paymentID: id, amount: money, reference: reference, callbackBaseURL: callback,
            clientID: clientId, title: title, notes: notes, squareAPIVersion: apiVersion, appVersion: appVersion,
            locationID: locationId, skipScreenSuccess: skipScreenSuccess)
        let observedAt = try observed.timestamp()
        let workflow = try storeOptions.workflow()
        defer { workflow.store.close() }
        let launch: LaunchOutcome
        do { launch = try await workflow.requestLaunch(spec, observedAt: observedAt) } catch {
            throw CLIError("\(error)")
        }
        let outcome = launch.outcome, url = launch.launchURL, token = launch.reference
        if observed.json {
            var object = PaymentJSON.object(outcome.payment)
            object["launch_url"] = url
            object["reference"] = token ?? NSNull()
            print(try JSONText.encode(object))
        } else {
            print(url)
        }
    }
}
