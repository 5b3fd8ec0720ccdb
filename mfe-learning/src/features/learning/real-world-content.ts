/** The real-world applications section: six companies with their service counts, four implementation patterns, why it matters. */
export const COMPANIES = [
  {
    name: 'Netflix',
    industry: 'Video streaming',
    services: '700+',
    description: 'Wrapped every call between its microservices in Hystrix breakers so one slow dependency cannot stall playback.',
    useCases: ['Recommendation service fallbacks', 'Playback API isolation'],
    patterns: ['Circuit breaker', 'Fallback', 'Bulkhead'],
  },
  {
    name: 'Amazon',
    industry: 'E-commerce',
    services: '1000+',
    description: 'Isolates the services behind each page so a failing widget degrades a section instead of the whole storefront.',
    useCases: ['Product page widgets', 'Checkout dependencies'],
    patterns: ['Circuit breaker', 'Timeouts', 'Load shedding'],
  },
  {
    name: 'Uber',
    industry: 'Ride sharing',
    services: '500+',
    description: 'Protects trip dispatch from slow downstream services such as pricing and maps during demand spikes.',
    useCases: ['Surge pricing calls', 'Map and ETA services'],
    patterns: ['Adaptive breaker', 'Rate limiting'],
  },
  {
    name: 'Spotify',
    industry: 'Music streaming',
    services: '300+',
    description: 'Keeps playback working when personalisation or social features fail, serving cached or default content.',
    useCases: ['Playlist personalisation', 'Social feed'],
    patterns: ['Circuit breaker', 'Cached fallback'],
  },
  {
    name: 'Airbnb',
    industry: 'Travel and hospitality',
    services: '400+',
    description: 'Guards search and booking against failures of payment and availability providers.',
    useCases: ['Payment providers', 'Availability search'],
    patterns: ['Circuit breaker', 'Retry with backoff'],
  },
  {
    name: 'PayPal',
    industry: 'Payments',
    services: '250+',
    description: 'Fails fast on unhealthy risk and ledger dependencies so queues do not grow while they recover.',
    useCases: ['Risk scoring', 'Ledger writes'],
    patterns: ['Bulkhead', 'Circuit breaker'],
  },
] as const;

export const IMPLEMENTATION_PATTERNS = [
  {
    name: 'API Gateway Protection',
    description: 'A breaker per downstream route at the gateway.',
    benefits: ['Stops cascading failures at the edge', 'One place to watch every dependency'],
  },
  {
    name: 'Database Connection Protection',
    description: 'A breaker around the connection pool.',
    benefits: ['No thread pile-up while the database recovers', 'Fast errors instead of slow timeouts'],
  },
  {
    name: 'Third-party Service Integration',
    description: 'A breaker and a fallback around each external provider.',
    benefits: ['Your product keeps working when theirs does not', 'Limits spend on failing paid calls'],
  },
  {
    name: 'Microservice Communication',
    description: 'A breaker in each client library between services.',
    benefits: ['Each team controls its failure budget', 'Load is shed where it starts'],
  },
] as const;

export const WHY_IT_MATTERS = [
  {
    title: 'Cost savings',
    text: 'Failing fast frees threads, connections and instances that would otherwise wait on timeouts, so incidents need less capacity.',
  },
  {
    title: 'User experience',
    text: 'A quick fallback answer beats a spinner that ends in an error; users keep working while a dependency recovers.',
  },
  {
    title: 'System reliability',
    text: 'Breakers stop one failure from cascading through every caller and give the failing service room to recover.',
  },
] as const;
