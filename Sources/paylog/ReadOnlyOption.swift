import ArgumentParser

/// `--read-only`, which the commands that only read take: open the store without writing a byte to it.
struct ReadOnlyOption: ParsableArguments {
    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Open the store without writing to it (a backup on read-only or immutable storage).",
            discussion: "The log reads as usual and data.mdb is left byte for byte as it was; the views (status, "
                + "analytics) read only when they are current, since bringing them up to date writes."))
    var readOnly = false
}
