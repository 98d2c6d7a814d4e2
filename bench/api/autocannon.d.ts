// The few parts of autocannon's API this benchmark uses (the package ships no types).
declare module 'autocannon' {
  type Histogram = { average: number; p50: number; p90: number; p99: number; max: number };
  export type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    workers?: number;
    pipelining?: number;
    headers?: Record<string, string>;
  };
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
