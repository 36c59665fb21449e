//! OpenTelemetry export of decisions (`otel` feature): one span per decided call, sent in
//! batches to an OTLP/HTTP collector (protobuf), with the attributes `decision`, `source`,
//! `reasonCode`, `risk` and `tool` (and the reviewer's report on classifier decisions). Never
//! a call's input, its reason text or a session's messages.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use axum::body::Bytes;
use axum::http::{Request, Response};
use opentelemetry::KeyValue;
use opentelemetry::trace::{Span as _, SpanKind, Tracer as _, TracerProvider as _};
use opentelemetry_http::{HttpClient, HttpError};
use opentelemetry_otlp::{Protocol, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, BatchSpanProcessor, SdkTracer, SdkTracerProvider,
};

use super::{DecisionSink, DecisionSummary, Metrics};

/// How long one export may take.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);

/// Where and how often decision spans are exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtlpConfig {
    /// The collector's OTLP/HTTP address (`http://127.0.0.1:4318`); `/v1/traces` is added
    /// unless the path already ends with it.
    pub endpoint: String,
    /// How long spans wait to be sent in a batch.
    pub batch_delay: Duration,
}

impl OtlpConfig {
    /// Export to `endpoint`, batching for a second.
    pub fn new(endpoint: impl Into<String>) -> Self {
        Self {
            endpoint: endpoint.into(),
            batch_delay: Duration::from_secs(1),
        }
    }

    /// The traces URL: the endpoint with `/v1/traces`.
    ///
    /// # Errors
    ///
    /// A message naming the endpoint when it is not an `http(s)://` URL.
    pub fn traces_url(&self) -> Result<String, String> {
        let endpoint = self.endpoint.trim();
        let url = reqwest::Url::parse(endpoint)
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https") && u.host().is_some())
            .ok_or_else(|| format!("telemetry.otlp_endpoint {endpoint:?} is not an http(s) URL"))?;
        let base = url.as_str().trim_end_matches('/');
        Ok(if base.ends_with("/v1/traces") {
            base.to_owned()
        } else {
            format!("{base}/v1/traces")
        })
    }
}

/// Sends the exporter's requests on the Tokio runtime it was made on, whatever thread the
/// batch processor exports from; counts the failures.
#[derive(Debug)]
struct RuntimeClient {
    client: reqwest::Client,
    runtime: tokio::runtime::Handle,
    metrics: Arc<Metrics>,
}

#[async_trait]
impl HttpClient for RuntimeClient {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let client = self.client.clone();
        let (parts, body) = request.into_parts();
        let sent = self.runtime.spawn(async move {
            let mut out = client
                .request(parts.method, parts.uri.to_string())
                .body(body);
            for (name, value) in &parts.headers {
                out = out.header(name, value);
            }
            let response = out.send().await?;
            let status = response.status();
            let headers = response.headers().clone();
            let body = response.bytes().await?;
            Ok::<_, reqwest::Error>((status, headers, body))
        });
        let outcome = match sent.await {
            Ok(Ok((status, headers, body))) => {
                let mut response = Response::new(body);
                *response.status_mut() = status;
                *response.headers_mut() = headers;
                if !status.is_success() {
                    self.metrics.export_failed();
                }
                Ok(response)
            }
            Ok(Err(e)) => Err(HttpError::from(e.without_url())),
            Err(e) => Err(HttpError::from(e)),
        };
        if outcome.is_err() {
            self.metrics.export_failed();
        }
        outcome
    }
}

/// Exports a span per decision over OTLP/HTTP. Dropping it (or [`OtlpDecisions::shutdown`])
/// sends what is queued.
pub struct OtlpDecisions {
    provider: SdkTracerProvider,
    tracer: SdkTracer,
}

impl std::fmt::Debug for OtlpDecisions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OtlpDecisions").finish_non_exhaustive()
    }
}

impl OtlpDecisions {
    /// An exporter to `config.endpoint`; must be made inside a Tokio runtime, which sends
    /// the requests. Failed exports are counted in `metrics`.
    ///
    /// # Errors
    ///
    /// A message naming the endpoint when it is unusable, or when there is no runtime.
    pub fn new(config: &OtlpConfig, metrics: Arc<Metrics>) -> Result<Self, String> {
        let url = config.traces_url()?;
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|_| "the OTLP exporter needs a Tokio runtime".to_owned())?;
        let client = reqwest::Client::builder()
            .timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|e| format!("the OTLP exporter's HTTP client: {e}"))?;
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_http_client(RuntimeClient {
                client,
                runtime,
                metrics,
            })
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(url.clone())
            .with_timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|e| format!("telemetry.otlp_endpoint {url:?}: {e}"))?;
        let processor = BatchSpanProcessor::builder(exporter)
            .with_batch_config(
                BatchConfigBuilder::default()
                    .with_scheduled_delay(config.batch_delay)
                    .build(),
            )
            .build();
        let provider = SdkTracerProvider::builder()
            .with_span_processor(processor)
            .with_resource(
                Resource::builder_empty()
                    .with_service_name("warrant")
                    .build(),
            )
            .build();
        let tracer = provider.tracer("warrant");
        Ok(Self { provider, tracer })
    }

    /// Sends every queued span now (blocks: call it off the runtime's threads).
    ///
    /// # Errors
    ///
    /// The exporter's complaint.
    pub fn flush(&self) -> Result<(), String> {
        self.provider.force_flush().map_err(|e| e.to_string())
    }

    /// Sends what is queued and stops (blocks: call it off the runtime's threads).
    ///
    /// # Errors
    ///
    /// The exporter's complaint.
    pub fn shutdown(&self) -> Result<(), String> {
        self.provider.shutdown().map_err(|e| e.to_string())
    }
}

impl DecisionSink for OtlpDecisions {
    fn decision(&self, d: &DecisionSummary) {
        let mut attributes = vec![
            KeyValue::new("decision", d.behavior),
            KeyValue::new("source", d.source),
            KeyValue::new("reasonCode", d.reason_code.clone()),
            KeyValue::new("risk", d.risk),
            KeyValue::new("toolCallId", d.tool_call_id.clone()),
        ];
        if let Some(tool) = &d.tool {
            attributes.push(KeyValue::new("tool", tool.clone()));
        }
        if let Some(review) = &d.review {
            attributes.push(KeyValue::new("reviewerModel", review.model.clone()));
            attributes.push(KeyValue::new("reviewerEmbedded", review.embedded));
            if let Some(v) = &review.prompt_version {
                attributes.push(KeyValue::new("reviewerPromptVersion", v.clone()));
            }
            if let Some(ms) = review.latency_ms {
                attributes.push(KeyValue::new(
                    "reviewerLatencyMs",
                    i64::try_from(ms).unwrap_or(i64::MAX),
                ));
            }
            if let Some(f) = &review.fallback {
                attributes.push(KeyValue::new("reviewerFallback", f.clone()));
            }
        }
        let mut span = self
            .tracer
            .span_builder("warrant.decision")
            .with_kind(SpanKind::Internal)
            .with_start_time(d.started.unwrap_or_else(SystemTime::now))
            .with_attributes(attributes)
            .start(&self.tracer);
        span.end();
    }
}
