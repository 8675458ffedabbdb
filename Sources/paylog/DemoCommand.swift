import ArgumentParser
import Foundation
import PaylogDomain
import PaylogPresentation
import PaylogStore
import PaylogWorkflow

/// `paylog demo`: the README's main job. Records a realistic day of a shop's payments and prints the summary.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Record a realistic day of payments (all providers, offline, late and duplicate callbacks) and summarize it.",
        discussion: "The day is the same on every run (seeded), so running the demo twice appends nothing the second time.")

    @OptionGroup var storeOptions: StoreOptions
    @Option(help: "How many payments the day has.") var payments: Int = 300
    @Option(help: "The seed of the day.") var seed: UInt64 = 2026

    func validate() throws {
        // A day's lines are planned in memory before anything is recorded: a bound keeps a typo from running for hours.
        guard (0...1_000_000).contains(payments) else {
            throw ValidationError("--payments must be from 0 to 1000000 (got \(payments)).")
        }
    }

    func run() async throws {
        let day = DemoDay(payments: payments, seed: seed)
        let plan = try day.plan()
        let workflow = try storeOptions.workflow(actor: "demo")
        defer { workflow.store.close() }
        try Self.refuseAnotherDay(plan, in: workflow.store, path: storeOptions.resolvedPath)
        print("Recording \(plan.lines.count) observations of \(payments) payments into \(workflow.store.path) …")
        let report = await workflow.ingest(lines: plan.lines)
        print("ingest: \(report.accepted) accepted, \(report.rejected) rejected, \(report.eventsAppended) events appended")
        for error in report.errors.prefix(5) { print("  line \(error.line): \(TerminalText.escaped(error.message))") }
        let expiry = Timestamp(microseconds: day.start.microseconds + 3 * 24 * 3600 * 1_000_000)
        let expired = try await workflow.expireOffline(now: expiry)
        print("expire (as of \(expiry)): \(expired.count) offline payment(s) never reconciled → failed")
        print("")
        print("Planted scenarios:")
        for (name, count) in plan.scenarios.sorted(by: { $0.key < $1.key }) { print("  \(name): \(count)") }
        print("Planted contract violations (recorded as observed; the replay checker judges them):")
        for violation in plan.contractViolations { print("  \(violation.payment): \(violation.breach)") }
        print("")
        let all = try PaymentsProjection.payments(in: workflow.store)
        var rows: [[String]] = []
        for provider in Provider.allCases {
            let mine = all.filter { $0.provider == provider }
            rows.append([provider.rawValue] + PaymentStatus.allCases.map { status in String(mine.filter { $0.status == status }.count) }
                        + [String(mine.count)])
        }
        print(Output.table(["provider"] + PaymentStatus.allCases.map(\.rawValue) + ["total"], rows))
        let late = all.filter(\.hadLateCallback).map(\.id)
        print("")
        print("Late successes after our timeout (the classic dispute): \(late.count)\(late.isEmpty ? "" : " — e.g. " + late.prefix(3).joined(separator: ", "))")
        print("Payments with contradicting callbacks: \(all.filter(\.hadContradictingCallbacks).count)")
        print("")
        print("Replay (rebuild every view from the log, judge every request and callback, verify the chain):")
        let replay = try LogReplay.run(workflow.store)
        try ReplayOutput.print(replay, json: false)
        if let example = late.first { print("Try: paylog status \(example) --store \(storeOptions.resolvedPath)") }
    }

    /// Fails when the store already holds anything but this very day: other payments than the day plans (another
    /// `--payments`, real payments, or the day cut short), or a first request of its first payment that is not this
    /// day's (another `--seed`). Recording this day into it would mix two days' events under the same payment ids,
    /// and its summary would describe a day the store does not hold; running the same day again appends nothing.
    static func refuseAnotherDay(_ plan: DemoDay.Plan, in store: EventStore, path: String) throws {
        guard try store.lastPosition() > 0 else { return }
        var planned: Set<String> = []
        var firstRequest: (payment: String, url: String)?
        for line in plan.lines {
            guard case .request(let payment, _, let url, _)? = try? Observation.parse(line) else { continue }
            planned.insert(payment)
            if firstRequest == nil { firstRequest = (payment, url) }
        }
        let recorded = Set(try PaymentsProjection.payments(in: store).map(\.id))
        var sameDay = recorded == planned
        if sameDay, let (payment, url) = firstRequest {
            let first = try store.readStream(payment, limit: 1).first.flatMap { try? EventCodec.decode($0) }
            if case .requested(let requested)? = first { sameDay = requested.launchURL == url } else { sameDay = false }
        }
        guard !sameDay else { return }
        throw CLIError(
            "The store at \(path) already holds another log (\(recorded.count) payment(s); another demo day, --seed or "
                + "--payments, real payments, or a demo stopped part-way): recording this day of \(planned.count) "
                + "payment(s) into it would mix two days' events under the same payment ids. Run the demo on a new "
                + "--store.")
    }
}
