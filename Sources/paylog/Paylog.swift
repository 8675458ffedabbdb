import ArgumentParser

/// The `paylog` command: an event-sourced log of card-payment app switches on LMDB.
@main
struct Paylog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paylog",
        abstract: "An append-only, hash-chained log of card-payment app switches (Square, SumUp, iZettle) on LMDB.",
        subcommands: [DemoCommand.self, LogCommand.self, StreamCommand.self, VerifyCommand.self]
    )
}
