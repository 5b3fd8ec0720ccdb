FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY libs ./libs
RUN npm install --no-audit --no-fund
COPY . .
RUN npx nx run api:build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/libs ./libs
COPY --from=build /app/dist/api ./dist/api
COPY remotes.json ./
USER node
EXPOSE 3000
CMD ["node", "--enable-source-maps", "dist/api/main.js"]
