import ArgumentParser

/// The `paylog` command: an event-sourced log of card-payment app switches on LMDB.
@main
struct Paylog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paylog",
        abstract: "An append-only, hash-chained log of card-payment app switches (Square, SumUp, iZettle) on LMDB.",
        discussion: "Every command that touches data takes --store DIR (default $PAYLOG_STORE, else ./paylog-data). See Docs/cli.md.",
        subcommands: [
            DemoCommand.self, IngestCommand.self, RequestCommand.self, SwitchCommand.self, CallbackCommand.self,
            ReconcileCommand.self, FailCommand.self, ExpireCommand.self, StatusCommand.self,
            LogCommand.self, StreamCommand.self, VerifyCommand.self, ExportCommand.self, BackupCommand.self, ImportLogCommand.self, ReplayCommand.self, AuditCommand.self, AnalyticsCommand.self, RebuildViewsCommand.self,
            ServeCommand.self, KeysCommand.self, BenchCommand.self,
        ]
    )
}
