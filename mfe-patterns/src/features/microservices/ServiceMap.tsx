import type { Microservice } from '@cbh/simulations';
import { theme } from '@cbh/ui';

const HEALTH_COLORS = { healthy: theme.colors.success, degraded: theme.colors.yellow, down: theme.colors.destructive } as const;

/** The services on a circle, an arrow for each dependency, each coloured by its health. */
export function ServiceMap({ services }: { services: readonly Microservice[] }) {
  const size = 420;
  const centre = size / 2;
  const radius = 150;
  const at = new Map(
    services.map((service, i) => {
      const angle = (2 * Math.PI * i) / services.length - Math.PI / 2;
      return [service.id, { x: centre + radius * Math.cos(angle), y: centre + radius * Math.sin(angle) }];
    }),
  );
  return (
    <svg
      viewBox={`0 0 ${size} ${size}`}
      width="100%"
      style={{ maxWidth: 480 }}
      role="img"
      aria-label={`Service map of ${services.length} services and their dependencies`}
    >
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={theme.colors.muted} />
        </marker>
      </defs>
      {services.flatMap((service) =>
        service.dependencies.map((dependency) => {
          const from = at.get(service.id)!;
          const to = at.get(dependency);
          if (!to) return null;
          // stop short of the target's circle so the arrow head shows
          const dx = to.x - from.x;
          const dy = to.y - from.y;
          const length = Math.hypot(dx, dy) || 1;
          return (
            <line
              key={`${service.id}-${dependency}`}
              x1={from.x + (dx / length) * 30}
              y1={from.y + (dy / length) * 30}
              x2={to.x - (dx / length) * 32}
              y2={to.y - (dy / length) * 32}
              stroke={theme.colors.muted}
              strokeWidth={1.5}
              markerEnd="url(#arrow)"
            />
          );
        }),
      )}
      {services.map((service) => {
        const { x, y } = at.get(service.id)!;
        return (
          <g key={service.id}>
            <circle cx={x} cy={y} r={28} fill={theme.colors.surface} stroke={HEALTH_COLORS[service.status]} strokeWidth={4} />
            <text x={x} y={y + 4} textAnchor="middle" fontSize={11} fill={theme.colors.text}>
              {service.id}
            </text>
            <text x={x} y={y + 44} textAnchor="middle" fontSize={10} fill={theme.colors.muted}>
              ×{service.instances} · {service.responseTime} ms
            </text>
          </g>
        );
      })}
    </svg>
  );
}
