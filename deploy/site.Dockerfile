# The static site for Kubernetes (deploy/k8s): the shell and every remote as `npm run build` leaves them in dist/,
# served by one nginx as an unprivileged user on port 8080 (deploy/site.nginx.conf). Build the site first:
#   npm run build
#   docker build -f deploy/site.Dockerfile -t <registry>/circuit-breaker-hub/site:<version> .
# Only the files copied below are sent to the builder (site.Dockerfile.dockerignore, which lets dist/ in).
FROM nginx:1.27.5-alpine

# the image's own site and server block make way for the hub's
RUN rm -rf /usr/share/nginx/html/* /etc/nginx/conf.d/default.conf
COPY deploy/site.nginx.conf /etc/nginx/nginx.conf
COPY deploy/nginx/security-headers.conf /etc/nginx/snippets/security-headers.conf

# the shell at /, with the deployment's manifest (the API answers /remotes.json; this copy stands in while no API
# replica is ready), and each remote of remotes.json at /remotes/<app>/
COPY dist/shell/ /usr/share/nginx/html/
COPY remotes.json /usr/share/nginx/html/remotes.json
COPY dist/mfe-learning/ /usr/share/nginx/html/remotes/mfe-learning/
COPY dist/mfe-dashboard/ /usr/share/nginx/html/remotes/mfe-dashboard/
COPY dist/mfe-domains/ /usr/share/nginx/html/remotes/mfe-domains/
COPY dist/mfe-users/ /usr/share/nginx/html/remotes/mfe-users/
COPY dist/mfe-patterns/ /usr/share/nginx/html/remotes/mfe-patterns/
COPY dist/mfe-status/ /usr/share/nginx/html/remotes/mfe-status/

# nginx, by number (Kubernetes's runAsNonRoot checks a number)
USER 101
EXPOSE 8080
