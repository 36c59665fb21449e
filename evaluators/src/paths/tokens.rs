//! Access tokens recognized by the form their issuers give them (`ghp_…`, `glpat-…`,
//! `sk_live_…`, `npm_…`): a prefix the issuer chose so that a token pasted anywhere can be
//! found, then a body of a fixed alphabet and length. A file holding one is a secret whatever
//! its name or format.

/// The characters of a token's body.
#[derive(Clone, Copy)]
enum Alphabet {
    /// Letters and digits.
    Alnum,
    /// Letters, digits, `_` and `-` (base64url).
    Url,
    /// Lower-case hexadecimal digits.
    Hex,
    /// Letters, digits, `_`, `-` and `/`: the path of a webhook's URL.
    Path,
    /// Letters, digits, `_`, `-` and `.`: parts joined by dots.
    Dotted,
}

impl Alphabet {
    fn admits(self, b: u8) -> bool {
        match self {
            Self::Alnum => b.is_ascii_alphanumeric(),
            Self::Url => b.is_ascii_alphanumeric() || b == b'_' || b == b'-',
            Self::Hex => b.is_ascii_digit() || (b'a'..=b'f').contains(&b),
            Self::Path => b.is_ascii_alphanumeric() || b"_-/".contains(&b),
            Self::Dotted => b.is_ascii_alphanumeric() || b"_-.".contains(&b),
        }
    }
}

/// One issuer's token form: its prefix (case as issued), the body's alphabet and the least
/// and most characters it has, and what the token is.
struct Form {
    prefix: &'static str,
    alphabet: Alphabet,
    least: usize,
    most: usize,
    what: &'static str,
    /// Whether the body must mix upper-case letters, lower-case letters and digits (a
    /// prefix short enough to end ordinary words).
    mixed: bool,
}

const fn form(
    prefix: &'static str,
    alphabet: Alphabet,
    least: usize,
    most: usize,
    what: &'static str,
) -> Form {
    Form {
        prefix,
        alphabet,
        least,
        most,
        what,
        mixed: false,
    }
}

/// A [`form`] whose body mixes upper-case letters, lower-case letters and digits.
const fn mixed(form: Form) -> Form {
    Form {
        mixed: true,
        ..form
    }
}

/// The token forms, as their issuers document them.
const FORMS: &[Form] = &[
    form(
        "ghp_",
        Alphabet::Alnum,
        36,
        36,
        "a GitHub access token (by its content)",
    ),
    form(
        "gho_",
        Alphabet::Alnum,
        36,
        36,
        "a GitHub access token (by its content)",
    ),
    form(
        "ghu_",
        Alphabet::Alnum,
        36,
        36,
        "a GitHub access token (by its content)",
    ),
    form(
        "ghs_",
        Alphabet::Alnum,
        36,
        36,
        "a GitHub access token (by its content)",
    ),
    form(
        "ghr_",
        Alphabet::Alnum,
        36,
        36,
        "a GitHub access token (by its content)",
    ),
    form(
        "github_pat_",
        Alphabet::Url,
        70,
        100,
        "a GitHub access token (by its content)",
    ),
    form(
        "glpat-",
        Alphabet::Url,
        20,
        64,
        "a GitLab access token (by its content)",
    ),
    form(
        "xoxb-",
        Alphabet::Url,
        20,
        255,
        "a Slack token (by its content)",
    ),
    form(
        "xoxp-",
        Alphabet::Url,
        20,
        255,
        "a Slack token (by its content)",
    ),
    form(
        "xoxa-",
        Alphabet::Url,
        20,
        255,
        "a Slack token (by its content)",
    ),
    form(
        "xoxe-",
        Alphabet::Url,
        20,
        255,
        "a Slack token (by its content)",
    ),
    form(
        "sk_live_",
        Alphabet::Alnum,
        20,
        255,
        "a Stripe secret key (by its content)",
    ),
    form(
        "rk_live_",
        Alphabet::Alnum,
        20,
        255,
        "a Stripe secret key (by its content)",
    ),
    form(
        "npm_",
        Alphabet::Alnum,
        36,
        36,
        "an npm access token (by its content)",
    ),
    form(
        "pypi-AgE",
        Alphabet::Url,
        50,
        400,
        "a PyPI API token (by its content)",
    ),
    form(
        "sk-proj-",
        Alphabet::Url,
        40,
        255,
        "an OpenAI API key (by its content)",
    ),
    form(
        "sk-ant-",
        Alphabet::Url,
        40,
        255,
        "an Anthropic API key (by its content)",
    ),
    form(
        "AIza",
        Alphabet::Url,
        35,
        35,
        "a Google API key (by its content)",
    ),
    form(
        "hf_",
        Alphabet::Alnum,
        34,
        40,
        "a Hugging Face token (by its content)",
    ),
    form(
        "dop_v1_",
        Alphabet::Hex,
        64,
        64,
        "a DigitalOcean token (by its content)",
    ),
    form(
        "shpat_",
        Alphabet::Alnum,
        32,
        32,
        "a Shopify access token (by its content)",
    ),
    form(
        "dckr_pat_",
        Alphabet::Url,
        27,
        64,
        "a Docker Hub access token (by its content)",
    ),
    form(
        "hvs.",
        Alphabet::Url,
        20,
        255,
        "a Vault token (by its content)",
    ),
    form(
        "glsa_",
        Alphabet::Url,
        32,
        64,
        "a Grafana token (by its content)",
    ),
    // Webhook URLs: whoever has one posts as the integration.
    form(
        "hooks.slack.com/services/",
        Alphabet::Path,
        40,
        120,
        "a Slack webhook URL (by its content)",
    ),
    form(
        "hooks.slack.com/workflows/",
        Alphabet::Path,
        40,
        120,
        "a Slack webhook URL (by its content)",
    ),
    form(
        "discord.com/api/webhooks/",
        Alphabet::Path,
        60,
        120,
        "a Discord webhook URL (by its content)",
    ),
    form(
        "discordapp.com/api/webhooks/",
        Alphabet::Path,
        60,
        120,
        "a Discord webhook URL (by its content)",
    ),
    form(
        "SG.",
        Alphabet::Dotted,
        66,
        66,
        "a SendGrid API key (by its content)",
    ),
    form(
        "dapi",
        Alphabet::Hex,
        32,
        32,
        "a Databricks token (by its content)",
    ),
    form(
        "lin_api_",
        Alphabet::Alnum,
        40,
        40,
        "a Linear API key (by its content)",
    ),
    form(
        "SK",
        Alphabet::Hex,
        32,
        32,
        "a Twilio API key (by its content)",
    ),
    form(
        "hvb.",
        Alphabet::Url,
        20,
        400,
        "a HashiCorp Vault token (by its content)",
    ),
    form(
        "HRKU-",
        Alphabet::Url,
        20,
        80,
        "a Heroku API key (by its content)",
    ),
    // OpenAI's user keys before project keys: `sk-` and 48 letters and digits.
    mixed(form(
        "sk-",
        Alphabet::Alnum,
        32,
        64,
        "an OpenAI API key (by its content)",
    )),
    // GitLab's runner, pipeline trigger and deploy tokens.
    form(
        "glrt-",
        Alphabet::Url,
        20,
        64,
        "a GitLab runner token (by its content)",
    ),
    form(
        "glptt-",
        Alphabet::Url,
        20,
        64,
        "a GitLab pipeline trigger token (by its content)",
    ),
    form(
        "gldt-",
        Alphabet::Url,
        20,
        64,
        "a GitLab deploy token (by its content)",
    ),
    // OpenAI's legacy keys carry `T3BlbkFJ` (base64 of `OpenAI`) in their middle.
    form(
        "T3BlbkFJ",
        Alphabet::Url,
        16,
        120,
        "an OpenAI API key (by its content)",
    ),
    form(
        "ya29.",
        Alphabet::Dotted,
        30,
        2048,
        "a Google OAuth access token (by its content)",
    ),
    form(
        ".atlasv1.",
        Alphabet::Url,
        40,
        120,
        "a Terraform Cloud token (by its content)",
    ),
    form(
        "rubygems_",
        Alphabet::Hex,
        48,
        48,
        "a RubyGems API key (by its content)",
    ),
    form(
        "ATATT",
        Alphabet::Url,
        50,
        400,
        "an Atlassian API token (by its content)",
    ),
    form(
        "key-",
        Alphabet::Alnum,
        32,
        32,
        "a Mailgun API key (by its content)",
    ),
    form(
        "PMAK-",
        Alphabet::Url,
        50,
        70,
        "a Postman API key (by its content)",
    ),
    form(
        "pscale_tkn_",
        Alphabet::Url,
        30,
        64,
        "a PlanetScale token (by its content)",
    ),
    form(
        "sbp_",
        Alphabet::Hex,
        40,
        40,
        "a Supabase access token (by its content)",
    ),
    form(
        "dp.st.",
        Alphabet::Dotted,
        30,
        100,
        "a Doppler token (by its content)",
    ),
    form(
        "pul-",
        Alphabet::Hex,
        40,
        40,
        "a Pulumi access token (by its content)",
    ),
    form(
        "NRAK-",
        Alphabet::Alnum,
        27,
        27,
        "a New Relic API key (by its content)",
    ),
    form(
        "sq0atp-",
        Alphabet::Url,
        22,
        22,
        "a Square access token (by its content)",
    ),
    form(
        "sq0csp-",
        Alphabet::Url,
        43,
        43,
        "a Square application secret (by its content)",
    ),
    form(
        "shpss_",
        Alphabet::Hex,
        32,
        32,
        "a Shopify shared secret (by its content)",
    ),
    form(
        "shpca_",
        Alphabet::Hex,
        32,
        32,
        "a Shopify access token (by its content)",
    ),
    form(
        "fm2_",
        Alphabet::Url,
        40,
        2048,
        "a Fly.io token (by its content)",
    ),
    form(
        "sk.eyJ",
        Alphabet::Dotted,
        50,
        400,
        "a Mapbox secret token (by its content)",
    ),
    form(
        "sk-svcacct-",
        Alphabet::Url,
        40,
        200,
        "an OpenAI API key (by its content)",
    ),
    form(
        "sk-admin-",
        Alphabet::Url,
        40,
        200,
        "an OpenAI API key (by its content)",
    ),
    form(
        "xai-",
        Alphabet::Alnum,
        40,
        100,
        "an xAI API key (by its content)",
    ),
    form(
        "gsk_",
        Alphabet::Alnum,
        50,
        56,
        "a Groq API key (by its content)",
    ),
    form(
        "r8_",
        Alphabet::Alnum,
        30,
        45,
        "a Replicate API token (by its content)",
    ),
    form(
        "whsec_",
        Alphabet::Url,
        24,
        100,
        "a webhook signing secret (by its content)",
    ),
    form(
        "figd_",
        Alphabet::Url,
        30,
        60,
        "a Figma access token (by its content)",
    ),
    form(
        "ntn_",
        Alphabet::Alnum,
        40,
        50,
        "a Notion integration token (by its content)",
    ),
    form(
        "glc_",
        Alphabet::Url,
        40,
        400,
        "a Grafana Cloud token (by its content)",
    ),
    form(
        "sntrys_",
        Alphabet::Url,
        40,
        400,
        "a Sentry auth token (by its content)",
    ),
    form(
        "GOCSPX-",
        Alphabet::Url,
        24,
        40,
        "a Google OAuth client secret (by its content)",
    ),
    // A BIP-32 extended private key (a wallet's every key), base58: mainnet and testnet,
    // and the SegWit variants.
    form(
        "xprv",
        Alphabet::Alnum,
        107,
        107,
        "a wallet's extended private key (by its content)",
    ),
    form(
        "tprv",
        Alphabet::Alnum,
        107,
        107,
        "a wallet's extended private key (by its content)",
    ),
    form(
        "yprv",
        Alphabet::Alnum,
        107,
        107,
        "a wallet's extended private key (by its content)",
    ),
    form(
        "zprv",
        Alphabet::Alnum,
        107,
        107,
        "a wallet's extended private key (by its content)",
    ),
    form(
        "uprv",
        Alphabet::Alnum,
        107,
        107,
        "a wallet's extended private key (by its content)",
    ),
    form(
        "vprv",
        Alphabet::Alnum,
        107,
        107,
        "a wallet's extended private key (by its content)",
    ),
    // A Telegram bot's token: the bot's number, `:AA`, then 33 characters.
    form(
        ":AA",
        Alphabet::Url,
        33,
        33,
        "a Telegram bot token (by its content)",
    ),
];

/// The prefixes of [`FORMS`], which [`super::secret_markers`] searches for.
pub(super) fn prefixes() -> impl Iterator<Item = &'static str> {
    FORMS.iter().map(|f| f.prefix)
}

/// How many characters a body of a form documented with one exact length may be short or
/// long by: a token copied with a character lost or doubled, or a test's stand-in counted
/// by hand, is still printed as one.
const LENGTH_SLACK: usize = 3;

/// What token `text` holds, if it holds one in the form its issuer gives it: the prefix,
/// wherever it starts (a token glued to a word, `rel-ghp_…`, is still printed whole), then
/// a body of the form's alphabet and length (within [`LENGTH_SLACK`] of an exact one)
/// ending the word. A body that is a placeholder (`EXAMPLE`, a run of one character, fewer
/// than eight distinct characters) is none; a form marked mixed needs upper-case letters,
/// lower-case letters and digits in its body (`sk-` glued to `task-` is no key's).
pub(super) fn known_token(text: &[u8]) -> Option<&'static str> {
    let searcher = searcher()?;
    searcher.find_overlapping_iter(text).find_map(|m| {
        let form = FORMS.get(m.pattern().as_usize())?;
        let (least, most) = if form.least == form.most {
            (
                form.least.saturating_sub(LENGTH_SLACK),
                form.most + LENGTH_SLACK,
            )
        } else {
            (form.least, form.most)
        };
        let rest = text.get(m.end()..)?;
        let len = rest
            .iter()
            .take(most + 1)
            .take_while(|&&b| form.alphabet.admits(b))
            .count();
        let body = rest.get(..len)?;
        let placeholder =
            body.windows(7).any(|w| w.eq_ignore_ascii_case(b"example")) || distinct(body) < 8;
        let mixed = !form.mixed
            || (body.iter().any(u8::is_ascii_uppercase)
                && body.iter().any(u8::is_ascii_lowercase)
                && body.iter().any(u8::is_ascii_digit));
        (len >= least && len <= most && !placeholder && mixed).then_some(form.what)
    })
}

/// How many distinct bytes `body` holds.
fn distinct(body: &[u8]) -> usize {
    let mut seen = [false; 256];
    body.iter().for_each(|&b| seen[usize::from(b)] = true);
    seen.iter().filter(|s| **s).count()
}

/// The search for [`FORMS`]' prefixes (case as issued); `None` if it could not be built, and
/// then no token is recognized by its form (the other checks still run).
fn searcher() -> Option<&'static aho_corasick::AhoCorasick> {
    static SEARCHER: std::sync::OnceLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::OnceLock::new();
    SEARCHER
        .get_or_init(|| aho_corasick::AhoCorasick::new(prefixes()).ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::known_token;

    #[test]
    fn tokens_in_their_issued_forms_are_found_anywhere() {
        let found = [
            "token = ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c\n",
            "https://x:glpat-Zx81_kq-Ty7mWc3pLs9e@gitlab.com/a.git",
            "SLACK=xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp",
            "\"key\": \"sk_live_51Hx9kQ2eZvKYlo2C8pNm3rT\"",
            "//registry.npmjs.org/:_authToken=npm_a8Kd92jLq0Zm3Xc7Vb5Nn4Pp6Rr1Ss2Tt9Uu",
            "AIzaSyD3x-9Kq_7LmN2pQr5sT8uV1wX4yZ6aB0c",
            // Glued to a word before it.
            "myghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c",
            "tag rel-ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c",
            "webhook_url: https://hooks.slack.com/services/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",
            "https://discord.com/api/webhooks/1234567890123456789/Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cD3eF6gH9iJ2kL5mN8oP1qR4sT7uV0",
            "SENDGRID=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",
            "dapi1a2b3c4d5e6f708192a3b4c5d6e7f809",
            "lin_api_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cD3eF",
            // Bodies a character short or long of the documented length.
            "lin_api_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab",
            "AIzaSyAb1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv",
            "SG.Ab1Cd2Ef3Gh4Ij5Kl6Mn7O.p8Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6Gh7Ij8Kl9Mn0Op1Q",
            "TELEGRAM_BOT=123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
            "OPENAI=sk-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Yz3Ab4Cd5Ef6",
            "glrt-Ab1Cd2Ef3Gh4Ij5Kl6Mn",
            "hvs.CAESIJ0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUV",
            "SKa1b2c3d4e5f60718293a4b5c6d7e8f90",
            "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi",
            "seed: tprv8ZgxMBicQKsPd9TeAdPADNnSyH9SSUUbTVeFszDE23Ki6TBB5nCefAdHkK8Fm3qMQR6sHwA56zqRmKmxnHk37JkiFzvncDqoKmPWubu7hDF\n",
        ];
        for text in found {
            assert!(known_token(text.as_bytes()).is_some(), "{text}");
        }
    }

    #[test]
    fn placeholders_partial_words_and_other_lengths_are_no_tokens() {
        let none = [
            // An AWS access key's id names the key, as in a signed URL's query: no secret.
            "X-Amz-Credential=AKIA4Q7ZJ2M5N8P3R6T9%2F20190215",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "ghp_ is the prefix of a classic token",
            "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1w",
            "ghp_Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cD3eF6gH",
            // `sk-` ending a word, before no key's mix of letters and digits.
            "task-3f2a9c1d7e5b4a6f8c0d2e4f6a8b0c1d3e5f7a9b",
            "npm_config_cache=/tmp/npm",
            "const prefix = \"sk_live_\";",
            "AKIA1234",
            "hf_hub_download(repo_id)",
            "https://hooks.slack.com/services/",
            "SG.example",
            "TASK-42",
            // A wallet's extended public key.
            "xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8",
            "xprv is the prefix of an extended private key",
        ];
        for text in none {
            assert!(known_token(text.as_bytes()).is_none(), "{text}");
        }
    }
}
