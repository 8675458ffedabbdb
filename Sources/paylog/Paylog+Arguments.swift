import ArgumentParser
import Foundation

extension Paylog {
    /// Checks that every argument is valid UTF-8, then runs the command. Swift decodes the arguments with each bad
    /// byte replaced by U+FFFD, and a callback URL recorded that way would not be the URL received (and two
    /// different ones would look alike), so an argument that is not UTF-8 stops the command before anything runs.
    static func main() async {
        if let problem = invalidArgument(CommandLine.unsafeArgv, count: Int(CommandLine.argc)) {
            Paylog.exit(withError: CLIError(problem))
        }
        await main(nil)
    }

    /// Why one of the `count` arguments in `argv` is not valid UTF-8 (its number, the byte and its column), or nil.
    static func invalidArgument(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, count: Int) -> String? {
        for index in 1..<max(count, 1) {
            guard let argument = argv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument))
            if String(validating: bytes, as: UTF8.self) == nil {
                let text = String(decoding: bytes, as: UTF8.self)
                return "Argument \(index) (\(text.prefix(64).debugDescription)) is not valid UTF-8. paylog records URLs and "
                    + "fields only as received, never repaired; pass them as UTF-8 (percent-encode other bytes in a URL)."
            }
        }
        return nil
    }
}
