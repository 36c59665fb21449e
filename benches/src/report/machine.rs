//! The machine a run happened on, as the report names it.

/// The CPU model and the number of cores the process may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// The CPU model (`AMD EPYC`), or `unknown CPU`.
    pub cpu: String,
    /// The cores available to the process.
    pub cores: usize,
}

impl Machine {
    /// The machine this process runs on.
    pub fn current() -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find_map(|l| l.strip_prefix("model name"))
                    .and_then(|rest| rest.split_once(':'))
                    .map(|(_, model)| model.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown CPU".to_owned());
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Self { cpu, cores }
    }
}

impl std::fmt::Display for Machine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} cores, {}", self.cores, self.cpu)
    }
}
