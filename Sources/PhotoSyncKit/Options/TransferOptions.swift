import ArgumentParser

/// The options `fetch` and `download` share: how long a request and the whole run may take, how
/// often a request is retried, and which CAs verify the servers.
struct TransferOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Seconds before a request times out (default 30; an image transfer gets at least 60).", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp(
        "Seconds the whole run may take, waiting for the lock and retries included (default: no limit). "
            + "It stops there, keeping what was saved, and exits 75.",
        valueName: "seconds"))
    var maxTime: Double?

    @Option(help: "Retries per failed request (429, 5xx, cut connections), 0 to 10 (default 3).")
    var retries: Int?

    @Option(
        help: ArgumentHelp(
            "Verify servers with the CA certificates in this PEM file instead of the system's (env PHOTOSYNC_CA_FILE, config ca_file).",
            discussion: "For a private root or a TLS-inspecting proxy. Verification is never turned off.",
            valueName: "path"),
        completion: .file())
    var caFile: String?

    func validate() throws {
        let ranged: [(String, SettingKey, Double?)] = [
            ("--timeout", .timeout, timeout), ("--max-time", .maxTime, maxTime), ("--retries", .retries, retries.map(Double.init)),
        ]
        for (flag, key, value) in ranged {
            if let value, let problem = key.rangeProblem(value) { throw ValidationError("\(flag) \(problem)") }
        }
    }
}
